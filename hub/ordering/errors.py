"""The blocked-keys routes' refusals (N77), each one of the hub's domain errors with this feature's code."""

from __future__ import annotations

from hub.errors import Conflict, NotFound


class OrderedKeyNotFound(NotFound):
    """The subscription has no open key of that value (never ordered, emptied, or another's)."""

    code, default_detail = "ordered_key_not_found", "the subscription has no open ordered key with this value"


class KeyNotBlocked(Conflict):
    """The key is open but not blocked: its head is pending or retrying (or a resume already ran)."""

    code, default_detail = "key_not_blocked", "the key is not blocked: its head is still being delivered"
