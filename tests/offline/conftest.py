"""The offline engine (xeri.offline) in CPython; tests/web/test_web_offline.py runs it in Chromium."""
