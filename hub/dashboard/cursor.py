"""The needs-attention cursor: the last item's sort key, signed and bound to the period and caller.

The token is ``base64url(json) "." base64url(HMAC-SHA256)``. The key is ``HUB_DASHBOARD_CURSOR_KEY``
or, when that is empty, one derived from the HS256 token secret (a separate purpose string, so the
cursor key never equals the token key). A cursor whose signature, period or caller does not match
is a 422 ``validation_error``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import UTC, datetime, timedelta

import orjson

from hub.config import get_settings
from hub.dashboard.period import Period, refuse

PURPOSE = b"streaming-hub/dashboard-cursor/v1"
SortKey = tuple[int, int, int, str]
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _key() -> bytes:
    settings = get_settings()
    configured = settings.dashboard_cursor_key.get_secret_value()
    if configured:
        return configured.encode()
    return hmac.new(settings.jwt_hs256_secret.get_secret_value().encode(), PURPOSE, hashlib.sha256).digest()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def micros(moment: datetime) -> int:
    """Whole microseconds since the epoch (exact, unlike a float)."""
    return (moment - EPOCH) // timedelta(microseconds=1)


def _binding(period: Period, caller: str) -> list[object]:
    return [micros(period.start), micros(period.end), caller]


def sign(*, after: SortKey, period: Period, caller: str) -> str:
    payload = orjson.dumps({"k": list(after), "b": _binding(period, caller)})
    mac = hmac.new(_key(), payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(mac)}"


def verify(token: str, *, period: Period, caller: str) -> SortKey:
    """The sort key the cursor resumes after; 422 when it was tampered with or is not this caller's."""
    try:
        encoded, _, signature = token.partition(".")
        payload = _unb64(encoded)
        valid = hmac.compare_digest(hmac.new(_key(), payload, hashlib.sha256).digest(), _unb64(signature))
        body = orjson.loads(payload) if valid else None
    except (ValueError, orjson.JSONDecodeError):
        body = None
    if not isinstance(body, dict):
        raise refuse("cursor", "the cursor is not one this hub issued")
    if body.get("b") != _binding(period, caller):
        raise refuse("cursor", "the cursor belongs to another period or caller; repeat from and to unchanged")
    rank, never_failed, failure, sub_id = body["k"]
    return int(rank), int(never_failed), int(failure), str(sub_id)
