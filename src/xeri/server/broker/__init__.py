"""Pub/sub between a table and the connections that show it: the envelope, the brokers, Redis's RESP."""
