"""One WebSocket per player: the connection's loop and uvicorn's protocol for it."""
