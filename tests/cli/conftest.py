"""The command lines: exit codes, one-line errors, the smoke test of every command."""
