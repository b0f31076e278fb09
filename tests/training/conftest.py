"""Training on Xeri: ``xeri exploit`` (a best response to a bot) and the distilled master."""
