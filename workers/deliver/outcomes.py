"""What a delivery batch ends with: the tries its sinks made, the jobs' settled rows and attempt rows, and
the batch's metrics. The engine (``workers/deliver/engine.py``) decides; these record."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from hub.metrics import ATTEMPTS, DELIVERY_LATENCY
from hub.sinks.base import AttemptResult, PreparedDelivery
from hub.sinks.vocabulary import Outcome
from workers.deliver.policy import Decision, RetryPolicy
from workers.deliver.prepare import new_attempt_id
from workers.deliver.store import AttemptRow, ClaimedJob, Settled


class Try(NamedTuple):
    """One request a sink made for a job, and what the policy decided after it."""

    job: ClaimedJob
    kind: str
    result: AttemptResult
    finished: datetime


Sent = tuple[AttemptResult, datetime, datetime]  # a try's result, when it started and when it finished


def observe(settled: list[Settled], tries: list[Try]) -> None:
    """The batch's metrics: one counter step per (kind, outcome), one label lookup per kind."""
    counts = Counter((item.attempt.sink_kind or "unknown", item.attempt.outcome) for item in settled
                     if item.attempt is not None)
    for (kind, outcome), count in counts.items():
        ATTEMPTS.labels(sink_kind=kind, outcome=outcome).inc(count)
    histograms: dict[str, Any] = {}
    for item in tries:
        histogram = histograms.get(item.kind)
        if histogram is None:
            histogram = histograms[item.kind] = DELIVERY_LATENCY.labels(sink_kind=item.kind)
        histogram.observe(item.result.latency_ms / 1000)


# When a job that went back untried (its destination's slot stayed busy) is due again.
UNTRIED_SECONDS = 1.0


def outcomes_of(policy: RetryPolicy, sends: Sequence[tuple[ClaimedJob, PreparedDelivery]],
                results: Sequence[Sent | None], indexes: Iterable[int], *,
                untried_seconds: float = UNTRIED_SECONDS) -> tuple[list[Settled], list[Try]]:
    """The settled state (and try) of each send in ``indexes``: its result's decision, or back untried
    (None: the destination's slot stayed busy), due again in ``untried_seconds``."""
    settled: list[Settled] = []
    tries: list[Try] = []
    for index in indexes:
        (job, delivery), sent = sends[index], results[index]
        if sent is None:
            decision = policy.deferred(state=job.state, tries=job.attempts, now=datetime.now(UTC),
                                       seconds=untried_seconds)
            settled.append(settled_job(job, decision, None))
            continue
        result, started, finished = sent
        decision = policy.after_try(result=result, tries=job.attempts + 1, now=finished)
        settled.append(settled_job(job, decision, attempt_row(job, delivery.sink_kind, decision, result, started)))
        tries.append(Try(job, str(delivery.sink_kind), result, finished))
    return settled, tries


def settled_job(job: ClaimedJob, decision: Decision, attempt: AttemptRow | None) -> Settled:
    return Settled(job, decision.state, decision.attempts, decision.next_attempt_at, decision.error_class, attempt)


def attempt_row(job: ClaimedJob, kind: str, decision: Decision, result: AttemptResult,
                 started: datetime) -> AttemptRow:
    assert decision.outcome is not None
    # Positional, in AttemptRow's order: one is made per try.
    return AttemptRow(new_attempt_id(), job.id, job.tenant_id, job.subscription_id, str(kind), job.event_seq,
                      decision.attempts, str(decision.outcome), result.status_code, result.error_class,
                      result.detail[:500], result.latency_ms, started)


def ended(job: ClaimedJob, kind: str, decision: Decision, detail: str, now: datetime) -> Settled:
    """A job that ends without a try (disabled, unpreparable): its attempt row records why."""
    assert decision.outcome is not None
    row = AttemptRow(
        id=new_attempt_id(), job_id=job.id, tenant_id=job.tenant_id, subscription_id=job.subscription_id,
        sink_kind=str(kind), event_seq=job.event_seq, attempt_no=job.attempts, outcome=decision.outcome.value,
        status_code=0, error_class=decision.error_class, detail=detail[:500], latency_ms=0, attempted_at=now)
    return settled_job(job, decision, row)


def lost_attempt(row: AttemptRow, result: AttemptResult, lease: datetime, worker: str) -> AttemptRow:
    """The attempt row of a try whose record its lease refused (the job was claimed again, N108): what the
    try did (delivered or failed, never an end of the job: the job is another claim's), and which worker
    and lease made it. Its ``attempt_no`` is the one the try was made as, shared with the next claim's try."""
    outcome = Outcome.delivered if result.ok else Outcome.failed
    until = lease.astimezone(UTC).isoformat(timespec="milliseconds")
    note = f"not recorded: lease until {until} of worker {worker} ended first"
    detail = f"{note}; {result.detail}" if result.detail else note
    return row._replace(id=new_attempt_id(), outcome=outcome.value, detail=detail[:500])
