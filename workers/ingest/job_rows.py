"""Delivery-job rows in PostgreSQL's binary COPY format, encoded here instead of field by field.

Ingest writes a job row for every (event, matching push subscription): ten rows an event with ten
subscriptions. psycopg's ``write_row`` sends each field of each row through a dumper, which was a
fifth of a filtered ingest batch's CPU; here what every job of a batch shares (state, attempts,
times, priority, no lease, no error, no ordering key: these jobs are unordered, N78) is encoded once per batch, a subscription's id once per
process, and a row is one ``bytes.join``. :data:`COPY_SQL` names the columns in the encoded order,
and the column types are checked against the ``DeliveryJob`` table when this module is imported.
"""

from __future__ import annotations

import struct
from datetime import UTC, datetime, timedelta

import uuid_utils

from hub.dataplane.models import DeliveryJob
from hub.tableshape import column_list, pg_types

COLUMNS = ("id", "tenant_id", "subscription_id", "event_seq", "state", "attempts", "next_attempt_at",
           "lease_until", "last_error_class", "created_at", "updated_at", "priority", "ordering_key")
_ENCODED_TYPES = ("uuid", "text", "uuid", "int8", "text", "int4", "timestamptz", "timestamptz", "text",
                  "timestamptz", "timestamptz", "int4", "text")
if pg_types(DeliveryJob, *COLUMNS) != _ENCODED_TYPES:  # a changed table must change this encoder too
    raise TypeError(f"delivery_jobs columns are now {pg_types(DeliveryJob, *COLUMNS)}; update job_rows")
COPY_COLUMNS = column_list(DeliveryJob, *COLUMNS)
COPY_SQL = f"COPY {DeliveryJob.__tablename__} ({COPY_COLUMNS}) FROM STDIN (FORMAT BINARY)"

HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0)  # signature, flags, no header extension
TRAILER = struct.pack("!h", -1)
_ROW_START = struct.pack("!hi", len(COLUMNS), 16)  # the field count, then the id's length
_UUID_LENGTH = struct.pack("!i", 16)
_NULL = struct.pack("!i", -1)
_PG_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
_INT8 = struct.Struct("!iq")


def _text(value: str) -> bytes:
    raw = value.encode()
    return struct.pack("!i", len(raw)) + raw


def _timestamp(moment: datetime) -> bytes:
    return _INT8.pack(8, (moment - _PG_EPOCH) // timedelta(microseconds=1))


class JobRows:
    """The COPY data of one batch's job rows, all created at ``now`` in ``state`` with ``priority``."""

    def __init__(self, *, now: datetime, state: str, priority: int, subscription_fields: dict[str, bytes]) -> None:
        stamp = _timestamp(now)
        self._shared = b"".join((_text(state), struct.pack("!ii", 4, 0), stamp, _NULL, _text(""), stamp, stamp,
                                 struct.pack("!ii", 4, priority), _NULL))
        self._fields = subscription_fields  # the caller's cache: id text -> encoded uuid field
        self._parts: list[bytes] = [HEADER]
        self.count = 0

    def _subscription(self, subscription_id: str) -> bytes:
        field = self._fields.get(subscription_id)
        if field is None:
            field = self._fields[subscription_id] = _UUID_LENGTH + uuid_utils.UUID(subscription_id).bytes
        return field

    def add(self, tenant_id: str, event_seq: int, subscription_ids: tuple[str, ...]) -> None:
        """One new job (a fresh UUIDv7 id) per subscription for the event (TENANT_ID, EVENT_SEQ)."""
        tenant, seq, shared, append = _text(tenant_id), _INT8.pack(8, event_seq), self._shared, self._parts.append
        for subscription_id in subscription_ids:
            append(b"".join((_ROW_START, uuid_utils.uuid7().bytes, tenant, self._subscription(subscription_id),
                             seq, shared)))
        self.count += len(subscription_ids)

    def data(self) -> bytes:
        """Every row added, between the binary COPY header and trailer."""
        return b"".join((*self._parts, TRAILER))
