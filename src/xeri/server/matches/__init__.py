"""Finished matches: their summaries, replays and reviews."""
