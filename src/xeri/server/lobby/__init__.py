"""The tables a server holds: creating, finding and listing them, here or on another process."""
