"""Terminal play: ``xeri play``.

The game loop (``game``) talks to a front end: ``RichFrontend`` draws the table
with rich for a person at a terminal, ``PlainFrontend`` writes one line per event
for scripts. Both read what to say from ``narration`` and ``board``, and input
goes through ``choice``; ``xeri.saves`` keeps every match on disk after each move.
"""
