"""Make a dead-letter error message safe to store and to serve (R-listDLQObservations-04).

A transport error message can carry a credential, a customer endpoint URL or a broker
address. ``sanitize_error_message`` removes all three; it is applied by the DLQ observer
when it captures a record and again by ``GET /admin/dlq`` when it serves one.
"""

from __future__ import annotations

import re

from hub.logs import scrub

MAX_ERROR_MESSAGE_CHARS = 1024

# Any URL (scheme://...) names an endpoint: drop it whole, keeping only that one was there.
_URL = re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^\s\"'<>]+")
# Bracketed IPv6 with port: [::1]:9092
_IPV6_HOST_PORT = re.compile(r"\[[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*(?:%\w+)?\](?::\d{1,5})?")
# host:port where host is a DNS name or IPv4 address: broker-1.internal:9092, 10.0.0.7:5432.
# A name must hold a letter somewhere, so clock times such as 12:30 stay readable.
_HOST_PORT = re.compile(
    r"(?<![\w.-])(?:(?:\d{1,3}\.){3}\d{1,3}|(?=[\w.-]*[A-Za-z])"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?):\d{1,5}(?![\w])"
)
# A bare IPv4 address is an address too, even without a port.
_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def sanitize_error_message(text: str) -> str:
    """``text`` without credentials, URLs, host:port pairs or IP addresses, bounded in length."""
    if not text:
        return ""
    cleaned = _CONTROL.sub(" ", str(text))
    cleaned = scrub(cleaned)
    cleaned = _URL.sub("[endpoint]", cleaned)
    cleaned = _IPV6_HOST_PORT.sub("[address]", cleaned)
    cleaned = _HOST_PORT.sub("[address]", cleaned)
    cleaned = _IPV4.sub("[address]", cleaned)
    if len(cleaned) > MAX_ERROR_MESSAGE_CHARS:
        cleaned = cleaned[: MAX_ERROR_MESSAGE_CHARS - 1] + "…"
    return cleaned
