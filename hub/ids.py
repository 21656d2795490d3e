"""Time-ordered identifiers (UUIDv7)."""

from __future__ import annotations

import uuid

import uuid_utils


def new_id() -> uuid.UUID:
    """A fresh UUIDv7 as a standard-library UUID."""
    return uuid.UUID(bytes=uuid_utils.uuid7().bytes)


def parse_uuid(value: str) -> uuid.UUID | None:
    """The UUID in ``value``, or None when it is not one."""
    try:
        return uuid.UUID(value)
    except (ValueError, AttributeError, TypeError):
        return None
