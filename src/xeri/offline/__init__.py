"""The offline engine: a table against the computer that runs in the browser, under Pyodide, on this same Python.

``table.OfflineTable`` plays one match and answers the page's socket messages with the server's own protocol
messages (built by ``xeri.views``, as the server builds them); ``worker`` is the thin JSON-text interface that the
page's Web Worker (``web/js/offline/worker.js``) calls; ``pack`` builds the wheel of the core, the bots and this
package that the worker loads, and the pack's manifest. Only the standard library and the core and bots are
imported, never ``xeri.server``: the worker's Python has nothing else.
"""
