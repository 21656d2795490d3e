"""A webhook subscription's static request headers (N54): checks, sealing at rest, the read projection,
opening, and the names the webhook sink owns (which no static header sets; the sink drops them again when
it builds a request).

Only a provider whose kind sends HTTP requests takes them (``Provider.takes_headers``); the checks
here are the kind-independent part (RFC 9110 names and values, the count, duplicates), and the
provider passes its own ``reserved`` test for the names it never lets a static header set. A header
marked secret is stored as an envelope of ``hub.secrets`` bound to its row and name, never in clear,
and the read projection leaves its value out.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

from hub.errors import ValidationFailed
from hub.secrets import seal

MAX_HEADERS = 20
MAX_NAME = 256
MAX_VALUE = 4096
# RFC 9110 section 5.6.2: a field name is a token.
TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# Visible ASCII with inner spaces and tabs; no CR, LF, NUL or other control character, no
# surrounding whitespace (RFC 9110 section 5.5 trims it anyway).
FIELD_VALUE = re.compile(r"[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?")

StaticHeaders = tuple[tuple[str, str], ...]

# The hub's own headers (signature, id, timestamp, content type, user agent), what frames the request,
# CloudEvents' binary-mode ``ce-`` attributes (a structured-mode receiver could read them as the event's),
# and the W3C trace context the hub sends (N59).
RESERVED_HEADERS = frozenset({
    "content-type", "user-agent", "content-length", "content-encoding", "transfer-encoding", "host", "connection",
    "keep-alive", "te", "trailer", "upgrade", "expect", "traceparent", "tracestate"})
RESERVED_PREFIXES = ("webhook-", "ce-", "proxy-")


def reserved_header(name: str) -> bool:
    """Whether ``name`` (any case) is one of the hub's own request headers, which no static header overrides."""
    lowered = name.lower()
    return lowered in RESERVED_HEADERS or lowered.startswith(RESERVED_PREFIXES)


def header_context(subscription_id: uuid.UUID | str, name: str) -> str:
    """The AEAD context binding a sealed header value to its row and (lower-cased) name."""
    return f"{subscription_id}:header:{name.lower()}"


def _name_fault(name: Any, seen: set[str], reserved: Callable[[str], bool]) -> str | None:
    if not isinstance(name, str) or not TOKEN.fullmatch(name) or len(name) > MAX_NAME:
        return f"a header name is an RFC 9110 token of at most {MAX_NAME} characters"
    if reserved(name):
        return f"{name} is set by the hub (signature, content type, user agent, webhook-*) and cannot be overridden"
    if name.lower() in seen:
        return f"{name} is listed twice (names are case-insensitive)"
    return None


def check_headers(raw: list[dict[str, Any]], *, reserved: Callable[[str], bool],
                  location: str = "headers") -> list[dict[str, Any]]:
    """The headers as ``{name, value, secret}``; a ValidationFailed naming every fault otherwise."""
    if len(raw) > MAX_HEADERS:
        raise ValidationFailed("too many headers", errors=[
            {"location": location, "message": f"at most {MAX_HEADERS} headers"}])
    errors: list[dict[str, str]] = []
    seen: set[str] = set()
    for index, header in enumerate(raw):
        name, value = header.get("name"), header.get("value")
        fault = _name_fault(name, seen, reserved)
        if fault:
            errors.append({"location": f"{location}/{index}/name", "message": fault})
        elif isinstance(name, str):
            seen.add(name.lower())
        if not isinstance(value, str) or len(value) > MAX_VALUE or not FIELD_VALUE.fullmatch(value):
            errors.append({"location": f"{location}/{index}/value", "message": (
                f"a header value is 1 to {MAX_VALUE} visible ASCII characters (inner spaces and tabs allowed; "
                "no CR, LF or other control character, no surrounding whitespace)")})
    if errors:
        raise ValidationFailed(errors[0]["message"], errors=errors)
    return [{"name": h["name"], "value": h["value"], "secret": bool(h.get("secret"))} for h in raw]


def seal_headers(headers: list[dict[str, Any]] | None, subscription_id: uuid.UUID) -> list[dict[str, Any]] | None:
    """The stored form: a secret header's value sealed (``sealed``), a plain one's kept (``value``)."""
    if not headers:
        return None
    return [{"name": h["name"], "secret": True, "sealed": seal(h["value"], context=header_context(
        subscription_id, h["name"]))} if h["secret"] else {"name": h["name"], "secret": False, "value": h["value"]}
        for h in headers]


def read_headers(stored: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The read projection: names and plain values; a secret header shows its name only."""
    return [{"name": h["name"], "secret": True} if h.get("secret") else
            {"name": h["name"], "value": h["value"], "secret": False} for h in stored or []]


def open_headers(stored: list[dict[str, Any]] | None, subscription_id: uuid.UUID | str,
                 opener: Callable[[str, str], str]) -> StaticHeaders:
    """The (name, value) pairs a request carries, secret values unsealed by ``opener(envelope, context)``
    (raises SecretsError when one cannot be opened)."""
    return tuple((h["name"], opener(h["sealed"], header_context(subscription_id, h["name"])) if h.get("secret")
                  else h["value"]) for h in stored or [])
