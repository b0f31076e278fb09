"""The compiled simulator and the vectorised env."""
