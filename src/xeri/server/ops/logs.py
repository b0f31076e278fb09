"""The server's log lines: text (the default) or one JSON object a line (``xeri serve --log-format json``).

Standard ``logging`` throughout: the server's own records (``xeri.*``) and uvicorn's (its errors and, at
``--log-level info``, each request) go through the same formatter. A JSON line holds

- ``time`` (ISO 8601, UTC, milliseconds), ``level`` (``info``, ``warning``...), ``logger``;
- ``event``: what happened, a name to filter on (``table_adopted``, ``table_handed_over``, ``table_handed_in``,
  ``lease_lost``, ``table_closed``, ``address_barred``, ``http_request``, ``websocket``; ``log`` for the rest);
- ``table``: the table's id, where the line is about one; and other fields the line carries (``to``, ``address``,
  ``client``, ``method``, ``path``, ``status``);
- ``message``: the line as text would have it; ``traceback`` where there is one.

No secret reaches a line, in either format and at any level: every handler redacts (server.http.security
``TokenFilter``: ``token=...`` is written ``token=<hidden>``, however its key is spelled; a ``Cookie``,
``Set-Cookie`` or ``Authorization`` header's value, a JSON ``"token"``, and a WebSocket frame cut short for the
debug log are hidden), and every text field of a JSON line passes through the same redaction.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import logging
from typing import Any

import uvicorn.config

from ..http.security import TokenFilter, _hidden

FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: record attributes copied into a JSON line when a log call gives them (``extra={...}``)
FIELDS = ("event", "table", "to", "address", "actor", "node", "code")


class JsonFormatter(logging.Formatter):
    """One JSON object a line, tokens hidden."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "event": "log",
            "logger": record.name,
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                out[name] = value
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, _version, status = record.args
            out.update(event="http_request", client=client, method=method, path=path, status=status)
        elif record.name.startswith("uvicorn") and "WebSocket" in str(record.msg):
            out["event"] = "websocket"
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its message: keep what there is
            message = f"{record.msg} {record.args!r}"
        out["message"] = message
        if record.exc_info:
            out["traceback"] = self.formatException(record.exc_info)
        elif record.stack_info:
            out["traceback"] = self.formatStack(record.stack_info)
        return json.dumps(_redacted(out), ensure_ascii=False, default=str)


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        return _hidden(value)
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redacted(v) for v in value]
    return value


def formatter(kind: str) -> logging.Formatter:
    return JsonFormatter() if kind == "json" else logging.Formatter(TEXT_FORMAT)


def configure(level: str, kind: str = "text") -> None:
    """The server's own log (``xeri.*``: adoptions, handovers, lost leases, the operator's changes) on stderr at
    ``level``, in ``kind`` (text or json), beside uvicorn's.

    uvicorn configures only its own loggers: without this, Python's last-resort handler showed warnings alone.
    """
    logger = logging.getLogger("xeri")
    for handler in list(logger.handlers):
        if getattr(handler, "_xeri", False):
            logger.removeHandler(handler)
    handler = logging.StreamHandler()
    handler._xeri = True  # type: ignore[attr-defined]
    handler.setFormatter(formatter(kind))
    handler.addFilter(TokenFilter())  # records of every xeri.* logger, not only those carrying the filter
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    logger.propagate = False


def uvicorn_config(kind: str) -> dict[str, Any]:
    """uvicorn's ``log_config`` for ``kind``: text keeps uvicorn's own format, json puts its lines through ours.

    Either way every handler redacts (server.http.security ``TokenFilter``): a record of any logger that reaches
    it, at any level (the WebSocket handshake's headers and frames at ``--log-level debug``), holds no cookie,
    ``Authorization`` or token.
    """
    if kind != "json":
        config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
        config["filters"] = {"tokens": {"()": TokenFilter}}
        for handler in config["handlers"].values():
            handler["filters"] = ["tokens"]
        return config
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "filters": {"tokens": {"()": TokenFilter}},
        "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json", "filters": ["tokens"],
                              "stream": "ext://sys.stderr"}},
        "loggers": {
            "uvicorn": {"handlers": ["json"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": ["json"], "level": "INFO", "propagate": False},
        },
    }
