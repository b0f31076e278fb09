"""The terminal game, in-process and in a pseudo-terminal."""
