"""Accounts: names, passwords, sessions, the account service and its routes (docs/accounts.md)."""
