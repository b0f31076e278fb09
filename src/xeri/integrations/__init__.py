"""Research interfaces: OpenSpiel, PettingZoo, Gymnasium and a Ray arena backend.

Each module needs its extra (``openspiel``, ``rl``, ``ray``); the core never imports them.
"""
