"""The learned bot's old import path, kept so researchers' ``from xeri.learned import ...`` still works.

The bot lives in :mod:`xeri.bots.learned`, beside the other bots.
"""

from xeri.bots.learned import LearnedBot, LearnedPolicyError, NumpyPolicy, default_policy, scale_vector

__all__ = ["LearnedBot", "LearnedPolicyError", "NumpyPolicy", "default_policy", "scale_vector"]
