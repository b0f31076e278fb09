"""The arena: duplicate deals and matches, ratings, the local and Ray backends."""
