"""Rated tables: who may make and join one, the leaderboards' rules and the ratings' routes."""
