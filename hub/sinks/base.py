"""The one interface every sink kind implements: a prepared delivery in, an attempt result out.

A sink never raises for a destination's behaviour (down, slow, refusing, lying): it classifies it
into an ``AttemptResult``, as Saleor's webhook transports do. Retry scheduling, outcomes and
bookkeeping belong to the delivery engine, not to the sink.
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, ClassVar, Protocol

from hub.sinks.vocabulary import ErrorClass, SinkKind


@dataclass(frozen=True, slots=True)
class PreparedDelivery:
    """Everything a sink needs to send one event to one subscription's destination once."""

    delivery_id: str  # stable across retries (the job id); the webhook-id and SQS dedup id
    job_id: uuid.UUID | None
    tenant_id: str
    subscription_id: uuid.UUID
    sink_kind: SinkKind
    endpoint: str
    body: bytes  # the structured-mode CloudEvent JSON, exactly as sent
    attributes: Mapping[str, Any]  # CloudEvent context attributes and extensions (no data)
    attempt: int = 1  # 1 for the first try
    timeout_seconds: float = 10.0
    signing_secrets: tuple[str, ...] = ()  # webhook: current first, then the previous during overlap
    credential: Mapping[str, Any] | None = None  # a queue kind's unsealed static credential
    grant: Mapping[str, Any] | None = None  # a delegated grant (role ARN, region, external id)
    headers: tuple[tuple[str, str], ...] = ()  # webhook: the subscription's static headers, unsealed (N54)
    traceparent: str | None = None  # this try's span when tracing is on (N59); else the event's own
    ordering_key: str | None = None  # an ordered job's key (N77): SQS FIFO's MessageGroupId (N78)

    @property
    def outbound_traceparent(self) -> str | None:
        """The ``traceparent`` a receiver gets: this try's span, or the producer's context it carried."""
        value = self.traceparent or self.attributes.get("traceparent")
        return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class AttemptResult:
    """What one try did. ``ok`` or not, it is always a value, never an exception."""

    ok: bool
    status_code: int = 0  # HTTP status for webhooks; 0 when none applies
    error_class: str = ""  # an ErrorClass value, "" on success
    detail: str = ""  # sanitized, human-readable; never a secret or a credential
    latency_ms: int = 0
    retry_after_seconds: float | None = None  # the destination's Retry-After, when it gave one
    terminal: bool = False  # no retry can help (410, oversized): dead-letter now
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def success(cls, *, status_code: int = 0, latency_ms: int = 0) -> AttemptResult:
        return _success(cls, status_code, latency_ms)

    @classmethod
    def failure(cls, error_class: ErrorClass, detail: str, *, status_code: int = 0, latency_ms: int = 0,
                retry_after_seconds: float | None = None, terminal: bool = False) -> AttemptResult:
        return cls(ok=False, status_code=status_code, error_class=error_class.value, detail=detail,
                   latency_ms=latency_ms, retry_after_seconds=retry_after_seconds, terminal=terminal)

    def timed(self, started: float) -> AttemptResult:
        """This result, its latency measured from ``started`` (a ``time.perf_counter()`` reading)."""
        return replace(self, latency_ms=elapsed_ms(started))


@lru_cache(maxsize=4096)
def _success(cls: type[AttemptResult], status_code: int, latency_ms: int) -> AttemptResult:
    """One shared value per (status, latency): a success carries nothing else, and results are immutable,
    so the delivery path does not build a new one per request."""
    return cls(ok=True, status_code=status_code, latency_ms=latency_ms, extra=_NO_EXTRA)


_NO_EXTRA: Mapping[str, Any] = MappingProxyType({})

# The latest ``time.monotonic()`` reading at which a sink may still begin a try (the engine's lease leaves
# room for the try and its record until then, N108); a try that would begin later sends nothing and
# answers ``NOT_STARTED``. A context variable rather than a parameter: it reaches the thread-pool call
# of a sink through its own batching without every sink's signature carrying it. Unset: no bound.
START_BY: ContextVar[float] = ContextVar("hub_sink_start_by", default=math.inf)


class NotStarted(Exception):
    """A try reached its sink's thread after its ``START_BY``: nothing was sent."""


# A sink's answer for a delivery it did not send because its try began too late (compared by identity):
# the engine puts the job back untried, with no attempt and no retry budget spent.
NOT_STARTED = AttemptResult(ok=False, detail="not started: its lease left no room")


def elapsed_ms(started: float) -> int:
    """Whole milliseconds since ``started``, a ``time.perf_counter()`` reading."""
    return int((time.perf_counter() - started) * 1000)


class Sink(Protocol):
    """One module per kind implements this; the engine keeps one instance per kind per process."""

    kind: ClassVar[SinkKind]
    # How many deliveries to one destination the engine hands over in one ``deliver_many`` call: 1 where
    # each request stands alone (webhooks), the API's batch limit where one call carries several.
    batch_size: ClassVar[int]

    async def deliver(self, delivery: PreparedDelivery) -> AttemptResult:
        """Send one delivery once and classify what happened. Never raises."""
        ...

    async def deliver_many(self, deliveries: Sequence[PreparedDelivery]) -> list[AttemptResult]:
        """Send several deliveries (batched where the destination allows); results in input order."""
        ...

    async def close(self) -> None:
        """Release pooled connections and clients."""
        ...
