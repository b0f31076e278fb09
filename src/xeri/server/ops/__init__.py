"""The operator's side: admin bars, backups, metrics, health checks and log lines."""
