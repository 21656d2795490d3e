"""JSON text as the event log needs it: parsed exactly when a number is too long for orjson, and checked for
U+0000 (which PostgreSQL cannot store), cheaply, before anything is parsed."""

from __future__ import annotations

import json
from typing import Any

import orjson

from hub.cloudevent.attributes import SERIALIZATION, PoisonRecord

# orjson reads integers beyond 64 bits as floats; such structured records use the exact parser.
_DIGIT_MAP = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_LONG_RUN = b"0" * 19
# JSON text can only hold U+0000 as an escape, so no backslash means no NUL. ``int in bytes`` is a
# plain memchr(); ``bytes in bytes`` first tries its operand as an int, and that failure costs more
# than the search itself, so multi-byte searches here use find().
_BACKSLASH = ord("\\")


def has_long_number(raw: bytes) -> bool:
    """Whether the JSON text holds a run of 19 digits or more (a number orjson may not read exactly)."""
    # translate() + find() is a C-speed scan, several times faster than a regex here.
    return raw.translate(_DIGIT_MAP).find(_LONG_RUN) >= 0


def loads_json(raw: bytes, what: str, *, exact: bool = False) -> Any:
    """Parsed JSON; poison when it is not JSON. EXACT: integers beyond 64 bits kept exact."""
    try:
        if exact and has_long_number(raw):
            return json.loads(raw)
        return orjson.loads(raw)
    except (orjson.JSONDecodeError, ValueError, RecursionError):
        raise PoisonRecord(SERIALIZATION, f"{what} is not valid JSON") from None


def escapes_nul(raw: bytes) -> bool:
    """Whether JSON text may hold U+0000: only as the escape ``\\u0000``, so only after a backslash."""
    return _BACKSLASH in raw and raw.find(b"\\u0000") >= 0


def has_nul(value: Any) -> bool:
    """Whether any string in a JSON value holds U+0000, which PostgreSQL cannot store."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any("\x00" in key or has_nul(item) for key, item in value.items())
    if isinstance(value, list):
        return any(has_nul(item) for item in value)
    return False
