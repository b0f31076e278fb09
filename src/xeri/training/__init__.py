"""Reinforcement learning on Xeri: the stable-baselines3 plumbing shared by ``xeri.train`` (the learned bot) and
``xeri exploit`` (a best response to any bot). Needs the ``train`` extra (sb3-contrib, CPU torch); nothing here is
imported by a bot or the server."""
