"""The game server: real processes on SQLite, PostgreSQL and Redis, behind HAProxy (helpers: test_server_support)."""
