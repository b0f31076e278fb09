"""Subcommands of the ``xeri`` command, one module each."""
