"""Quick pairing ("Play online"): the pools of seekers per format (pools) and the service that seats them (service)."""
