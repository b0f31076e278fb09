"""The game server: real processes on SQLite, PostgreSQL and Redis, behind HAProxy (helpers: support.server)."""
