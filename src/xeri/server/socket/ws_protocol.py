"""The WebSocket protocol ``xeri serve`` runs: uvicorn's sans-I/O one, quiet about a client's bad UTF-8.

uvicorn's ``websockets-sansio`` protocol closes a connection whose text frame is not UTF-8 with 1007, as
RFC 6455 asks, but logs a ``UnicodeDecodeError`` traceback first: any client could fill the log with them.
Here a text frame is decoded once, by this protocol: that decode is both the check (the same close goes out,
without a word logged) and the text the app reads (server.socket.connection), so no frame is decoded twice.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

#: the close code of a text frame that is not UTF-8 (RFC 6455, 7.4.1)
CLOSE_INVALID_DATA = 1007


class QuietWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol; a text frame that is not UTF-8 closes the socket (1007), unlogged."""

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()  # a binary frame, or one after the close: uvicorn's own way
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        try:
            text = data.decode()  # the frame's one decode
        except UnicodeDecodeError:
            self.conn.send_close(CLOSE_INVALID_DATA, "text frames must be UTF-8")
            self.handle_parser_exception()
            return
        # what uvicorn's own method does with the text it decodes: hand it over, and read no more until it is taken
        self.queue.put_nowait({"type": "websocket.receive", "text": text})
        if not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()
