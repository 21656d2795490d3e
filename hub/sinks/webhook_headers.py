"""The request headers the webhook sink owns, which a subscription's static headers never set (N54).

Its own module, free of the HTTP client, so the webhook provider checks names against it at write
time without importing the sink; the sink drops such a name again when it builds a request.
"""

from __future__ import annotations

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
