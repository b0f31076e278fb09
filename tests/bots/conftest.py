"""The computer opponents, their hidden-information twin tests, the review."""
