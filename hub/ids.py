"""Time-ordered identifiers (UUIDv7), fresh or fixed by a Kafka record's coordinates."""

from __future__ import annotations

import hashlib
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


def record_uuid(topic: str, partition: int, offset: int, timestamp_ms: int) -> uuid.UUID:
    """A UUIDv7-shaped id fixed by a record's coordinates, so a re-consumed record dedups."""
    digest = bytearray(hashlib.blake2b(f"{topic}\x00{partition}\x00{offset}".encode(), digest_size=10).digest())
    raw = max(timestamp_ms, 0).to_bytes(6, "big") + bytes(digest)
    value = bytearray(raw)
    value[6] = 0x70 | (value[6] & 0x0F)
    value[8] = 0x80 | (value[8] & 0x3F)
    return uuid.UUID(bytes=bytes(value))
