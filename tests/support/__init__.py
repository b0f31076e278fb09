"""The tests' shared helpers, in one place: every test folder imports them as ``support.NAME``, never from
another test module (``tests`` is on pytest's pythonpath)."""
