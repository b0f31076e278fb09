"""Every rate limit and cap, in memory and in Redis: tables, connections, hints, requests, sign-ins."""
