"""Consumer queues: create (ensure-exists), re-filter, delete, attach, and the idle sweep (N36, N40).

Each queue is a ``consumer_queues`` row, which says which tenant owns it (E2: for anyone else it does
not exist), and a RabbitMQ queue bound to the tenant's exchange by its filter groups. Keyword-only
functions raise domain errors; the routers and servicers only translate.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import aiormq
import orjson
from sqlalchemy import text

from hub.consumer import topology
from hub.consumer.access import CONSUME, CREATE, DELETE, Consumer
from hub.consumer.errors import BrokerUnavailable, QueueNotFound
from hub.consumer.filters import FilterGroup, bindings, groups_from_json
from hub.consumer.models import ConsumerQueue
from hub.consumer.relay import start_cursor
from hub.consumer.topology import ConsumerRabbit
from hub.db import session_scope
from hub.errors import invalid

QUEUE_ID = re.compile(r"^[A-Za-z0-9._-]{1,200}$")
TOKEN = re.compile(r"^[\x21-\x7e]{1,200}$")  # printable ASCII, no space (E11)
BROKER_FAULTS = (aiormq.exceptions.AMQPError, ConnectionError, OSError, asyncio.TimeoutError)


@dataclass(frozen=True, slots=True)
class QueueRecord:
    queue_id: str
    tenant_id: str
    durable: bool
    groups: tuple[FilterGroup, ...]


def check_queue_id(queue_id: str) -> str:
    """A queue id that matches the seed's rule; 422 / INVALID_ARGUMENT, before any broker call."""
    if not QUEUE_ID.fullmatch(queue_id or ""):
        raise invalid("queue_id", "queue_id must match ^[A-Za-z0-9._-]{1,200}$")
    return queue_id


def check_token(token: str) -> str:
    """A reconnect token of legal shape; the error names the field and rule, never the token."""
    if not TOKEN.fullmatch(token):
        raise invalid("reconnect_token", "reconnect_token must be 1 to 200 printable ASCII characters "
                                         "(no spaces, no control characters)")
    return token


def _record(row: ConsumerQueue) -> QueueRecord:
    return QueueRecord(row.queue_id, row.tenant_id, row.durable, groups_from_json(row.filter_groups))


def _load(queue_id: str) -> ConsumerQueue | None:
    with session_scope() as session:
        return session.get(ConsumerQueue, queue_id)


async def find_owned(*, consumer: Consumer, queue_id: str, durable: bool) -> QueueRecord:
    """The tenant's queue of this kind; QueueNotFound for a missing one and for another tenant's."""
    row = await asyncio.to_thread(_load, queue_id)
    if row is None or row.tenant_id != consumer.tenant_id or row.durable != durable:
        raise QueueNotFound(f"no {'durable' if durable else 'non-durable'} queue with this id")
    return _record(row)


def _insert(queue_id: str, tenant_id: str, durable: bool, groups: Sequence[FilterGroup]) -> bool:
    """Insert the row (and the tenant's relay cursor); False when the id is taken."""
    with session_scope() as session:
        inserted = session.execute(text(
            "INSERT INTO consumer_queues (queue_id, tenant_id, durable, filter_groups, created_at, last_attached_at) "
            "VALUES (:q, :t, :d, CAST(:g AS jsonb), now(), now()) ON CONFLICT (queue_id) DO NOTHING RETURNING 1"),
            {"q": queue_id, "t": tenant_id, "d": durable, "g": _groups_json(groups)}).first()
        if inserted:
            start_cursor(session.connection(), tenant_id, queue_id)
        session.commit()
        return bool(inserted)


def _groups_json(groups: Sequence[FilterGroup]) -> str:
    return orjson.dumps([group.as_json() for group in groups]).decode()


def _delete_row(queue_id: str) -> None:
    with session_scope() as session:
        session.execute(text("DELETE FROM consumer_queues WHERE queue_id = :q"), {"q": queue_id})
        session.commit()


async def _declare(broker: ConsumerRabbit, record: QueueRecord) -> None:
    try:
        await topology.declare_queue(broker, tenant_id=record.tenant_id, queue_id=record.queue_id,
                                     durable=record.durable, keys=bindings(record.groups))
    except BROKER_FAULTS as exc:
        raise BrokerUnavailable() from exc


async def create_queue(*, broker: ConsumerRabbit, tenant_id: str, queue_id: str, durable: bool,
                       groups: Sequence[FilterGroup]) -> bool:
    """Create the queue (row, then broker); False when the id is taken. A broker fault undoes the row."""
    if not await asyncio.to_thread(_insert, queue_id, tenant_id, durable, groups):
        return False
    try:
        await _declare(broker, QueueRecord(queue_id, tenant_id, durable, tuple(groups)))
    except BrokerUnavailable:
        await asyncio.to_thread(_delete_row, queue_id)
        raise
    return True


async def ensure_durable(*, broker: ConsumerRabbit, consumer: Consumer, queue_id: str,
                         groups: Sequence[FilterGroup]) -> tuple[str, bool]:
    """CreateDurableQueue: (queue id, created). An existing id of the tenant is returned unchanged."""
    await consumer.require(CREATE)
    if queue_id:
        check_queue_id(queue_id)
    else:
        queue_id = f"durable-queue-{uuid.uuid4().hex}"
    if await create_queue(broker=broker, tenant_id=consumer.tenant_id, queue_id=queue_id, durable=True,
                          groups=groups):
        return queue_id, True
    record = await find_owned(consumer=consumer, queue_id=queue_id, durable=True)
    await _declare(broker, record)  # a queue the broker lost (a reaped or restarted node) comes back
    return queue_id, False


def _store_groups(queue_id: str, groups: Sequence[FilterGroup]) -> None:
    with session_scope() as session:
        session.execute(text("UPDATE consumer_queues SET filter_groups = CAST(:g AS jsonb) WHERE queue_id = :q"),
                        {"g": _groups_json(groups), "q": queue_id})
        session.commit()


async def refilter(*, broker: ConsumerRabbit, record: QueueRecord, groups: Sequence[FilterGroup]) -> None:
    """Bind the queue by GROUPS instead of its stored groups (new bindings first)."""
    try:
        await topology.rebind(broker, tenant_id=record.tenant_id, queue_id=record.queue_id,
                              old=bindings(record.groups), new=bindings(groups))
    except aiormq.exceptions.ChannelNotFoundEntity as exc:
        raise QueueNotFound("the queue no longer exists") from exc
    except BROKER_FAULTS as exc:
        raise BrokerUnavailable() from exc
    await asyncio.to_thread(_store_groups, record.queue_id, groups)


async def update_durable(*, broker: ConsumerRabbit, consumer: Consumer, queue_id: str,
                         groups: Sequence[FilterGroup]) -> None:
    """UpdateDurableQueue: authorized by create-durable-queues, as the seed says."""
    await consumer.require(CREATE)
    record = await find_owned(consumer=consumer, queue_id=check_queue_id(queue_id), durable=True)
    await refilter(broker=broker, record=record, groups=groups)


async def delete_durable(*, broker: ConsumerRabbit, consumer: Consumer, queue_id: str) -> None:
    await consumer.require(DELETE)
    record = await find_owned(consumer=consumer, queue_id=check_queue_id(queue_id), durable=True)
    try:
        await topology.delete_queue(broker, record.queue_id)
    except BROKER_FAULTS as exc:
        raise BrokerUnavailable() from exc
    await asyncio.to_thread(_delete_row, record.queue_id)


async def attach_durable(*, broker: ConsumerRabbit, consumer: Consumer, queue_id: str) -> QueueRecord:
    """The queue a durable consume stream may read; checked before the broker is contacted."""
    check_queue_id(queue_id)
    await consumer.require(CONSUME)
    return await find_owned(consumer=consumer, queue_id=queue_id, durable=True)


def touch(queue_id: str) -> None:
    """A consumer is attached now: the idle window starts again."""
    with session_scope() as session:
        session.execute(text("UPDATE consumer_queues SET last_attached_at = now() WHERE queue_id = :q"),
                        {"q": queue_id})
        session.commit()


def _idle_rows(before: datetime) -> list[tuple[str, bool, datetime]]:
    with session_scope() as session:
        return [(row[0], row[1], row[2]) for row in session.execute(text(
            "SELECT queue_id, durable, last_attached_at FROM consumer_queues WHERE last_attached_at < :before"),
            {"before": before}).all()]


async def sweep_idle(*, broker: ConsumerRabbit, now: datetime | None = None) -> int:
    """Delete durable queues idle past the window and forget non-durable ones the broker expired."""
    from hub.config import get_settings

    settings, now = get_settings(), now or datetime.now(UTC)
    durable_before = now - timedelta(seconds=settings.consumer_durable_idle_seconds)
    grace_before = now - timedelta(seconds=settings.consumer_reconnect_grace_seconds)
    removed = 0
    for queue_id, durable, attached_at in await asyncio.to_thread(_idle_rows, max(durable_before, grace_before)):
        consumers = await topology.queue_consumers(broker, queue_id)
        if consumers:
            await asyncio.to_thread(touch, queue_id)
            continue
        idle = durable and attached_at < durable_before
        if consumers is None or idle:  # expired by the broker (non-durable), lost, or idle past the window
            if idle:
                await topology.delete_queue(broker, queue_id)
            await asyncio.to_thread(_delete_row, queue_id)
            removed += 1
    return removed


async def open_non_durable(*, broker: ConsumerRabbit, consumer: Consumer, token: str | None,
                           groups: Sequence[FilterGroup], update: bool) -> str:
    """A fresh non-durable queue (no token), or the live one a token names, re-filtered on UPDATE."""
    if token is None:
        queue_id = f"nd-{uuid.uuid4().hex}"
        await create_queue(broker=broker, tenant_id=consumer.tenant_id, queue_id=queue_id, durable=False,
                           groups=groups)
        return queue_id
    record = await find_owned(consumer=consumer, queue_id=check_token(token), durable=False)
    try:
        alive = await topology.queue_consumers(broker, record.queue_id) is not None
    except BROKER_FAULTS as exc:
        raise BrokerUnavailable() from exc
    if not alive:
        raise QueueNotFound("the queue expired after the reconnect grace; start a fresh stream")
    if update:
        await refilter(broker=broker, record=record, groups=groups)
    return record.queue_id
