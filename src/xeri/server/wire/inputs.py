"""What clients send, read safely: JSON with limits, table ids, and text the database can hold.

Every check here turns bad input into a ``ProtocolError`` (a 4xx answer or a
socket error message), before anything is changed or stored:

- JSON nested deeper than ``MAX_DEPTH`` (Python's parser would raise ``RecursionError``);
- integers of more than ``MAX_DIGITS`` digits (past Python's int-string conversion limit they
  raise ``ValueError``; seeds need 20), and non-finite numbers (``NaN``, ``1e999``);
- text with a lone surrogate (it cannot be encoded as UTF-8) or a NUL character
  (PostgreSQL refuses it in text);
- a number in a query string (``?seat=``, ``?limit=``) that is not a few ASCII digits in range
  (``str.isdigit`` accepts "²", which ``int`` refuses).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from .refusals import ProtocolError

MAX_DEPTH = 32
MAX_DIGITS = 40
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: a query string's number: ASCII digits only, and few of them (every query number here is small)
_QUERY_INT = re.compile(r"[0-9]{1,9}")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ProtocolError("bad_json", f"numbers are limited to {MAX_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError("bad_json", "numbers must be finite")
    return value


def _constant(name: str) -> Any:
    raise ProtocolError("bad_json", f"{name} is not a JSON number")


def check_text(value: str, what: str = "text") -> str:
    """``value`` if the database and UTF-8 can hold it: no NUL, no lone surrogate."""
    if "\x00" in value:
        raise ProtocolError("bad_request", f"{what} holds a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("bad_request", f"{what} holds a lone surrogate (not valid Unicode)") from None
    return value


def _check(value: Any) -> None:
    """Depth and text of a parsed value, walked without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            check_text(item)
        elif isinstance(item, (list, dict)):
            if depth > MAX_DEPTH:
                raise ProtocolError("bad_json", f"JSON may nest at most {MAX_DEPTH} deep")
            if isinstance(item, dict):
                stack.extend((k, depth) for k in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)


def parse_json(text: str | bytes) -> Any:
    """A client's JSON under the limits above; a ``ProtocolError`` if it breaks one."""
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise ProtocolError("bad_json", f"JSON may nest at most {MAX_DEPTH} deep") from None
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("bad_json", "the message is not valid JSON") from None
    _check(value)
    return value


def is_table_id(value: str) -> bool:
    """Whether ``value`` could be a table id (letters, digits, ``-`` and ``_``): nothing else reaches the database."""
    return _TABLE_ID.fullmatch(value) is not None


def query_int(params: Mapping[str, str], name: str, default: int, lo: int, hi: int, *, clamp: bool = False,
              what: str = "") -> int:
    """The number ``params[name]`` (``default`` if absent) as the JSON limits would take it: ASCII digits only.

    Out of ``lo..hi`` it is a ``ProtocolError``, or with ``clamp`` brought into the range. ``what`` says what the
    number is, in the error.
    """
    raw = params.get(name)
    if raw is None:
        return default
    if _QUERY_INT.fullmatch(raw) is None:
        raise ProtocolError("bad_request", f"{name} must be {what or 'a whole number'} from {lo} to {hi}, "
                            "in digits 0-9")
    value = int(raw)
    if lo <= value <= hi:
        return value
    if clamp:
        return max(lo, min(value, hi))
    raise ProtocolError("bad_request", f"{name} must be a whole number from {lo} to {hi}, not {value}")
