"""The served shapes of the delivery log, resend and recover, and the projections that build them."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import AwareDatetime, ConfigDict, Field, model_validator

from hub.dataplane.models import JobState
from hub.deliverylog.filters import OUTCOME_OF_STATE
from hub.deliverylog.models import DeliveryRecovery
from hub.deliverylog.service import JobRecord
from hub.schema_base import ClosedModel, Int64, omittable
from hub.subscription.projection import timestamp

JobStateName = Literal["pending", "retrying", "waiting", "delivered", "dead_lettered", "disabled"]  # waiting: N77
JobOutcomeName = Literal["delivered", "failed", "dead_lettered", "disabled"]
RecoverableOutcome = Literal["failed", "dead_lettered", "disabled"]


class DeliveryEvent(ClosedModel):
    model_config = ConfigDict(title="DeliveryEvent")

    id: str = Field(description="The CloudEvent id.")
    type: str
    source: str
    time: datetime = omittable()  # the CloudEvent `time` attribute, when the event carried one
    received_at: datetime
    seq: Int64


class DeliveryAttemptRecord(ClosedModel):
    model_config = ConfigDict(title="DeliveryAttemptRecord")

    attempt_no: int
    attempted_at: datetime
    outcome: str
    status_code: int
    error_class: str
    latency_ms: int
    detail: str


class DeliveryJobRecord(ClosedModel):
    model_config = ConfigDict(title="DeliveryJobRecord")

    id: uuid.UUID
    subscription_id: uuid.UUID
    state: JobStateName
    outcome: JobOutcomeName = omittable()  # absent while the job was never tried
    attempt_count: int
    next_attempt_at: datetime = omittable()  # only while the job is due (pending, retrying)
    created_at: datetime
    updated_at: datetime
    event: DeliveryEvent = omittable()  # absent once retention removed the event
    attempts: list[DeliveryAttemptRecord]


class DeliveryLogResponse(ClosedModel):
    model_config = ConfigDict(title="DeliveryLogResponse")

    deliveries: list[DeliveryJobRecord]
    next_cursor: str


class DeliveryJobResponse(ClosedModel):
    model_config = ConfigDict(title="DeliveryJobResponse")

    delivery: DeliveryJobRecord


class RecoverRequest(ClosedModel):
    model_config = ConfigDict(title="RecoverRequest")

    since: AwareDatetime
    until: AwareDatetime | None = None
    outcomes: list[RecoverableOutcome] | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _until_after_since(self) -> RecoverRequest:
        if self.until is not None and self.until <= self.since:
            raise ValueError("until must be after since")
        return self


class Recovery(ClosedModel):
    model_config = ConfigDict(title="Recovery")

    id: uuid.UUID
    subscription_id: uuid.UUID
    state: Literal["running", "completed"]
    since: datetime
    until: datetime
    outcomes: list[RecoverableOutcome]
    matched: int
    requeued: int
    skipped: int
    created_at: datetime
    updated_at: datetime
    completed_at: datetime = omittable()


class RecoveryResponse(ClosedModel):
    model_config = ConfigDict(title="RecoveryResponse")

    recovery: Recovery


def _event(row: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"id": row.ce_id, "type": row.event_type, "source": row.source,
                             "received_at": timestamp(row.received_at), "seq": row.event_seq}
    if row.event_time is not None:
        event["time"] = timestamp(row.event_time)
    return event


def _attempt(row: Any) -> dict[str, Any]:
    return {"attempt_no": row.attempt_no, "attempted_at": timestamp(row.attempted_at), "outcome": row.outcome,
            "status_code": row.status_code, "error_class": row.error_class, "latency_ms": row.latency_ms,
            "detail": row.detail}


def as_job(sub_id: uuid.UUID, record: JobRecord) -> dict[str, Any]:
    """A ``DeliveryJobRecord``: optional fields only when they apply."""
    row = record.row
    body: dict[str, Any] = {"id": str(row.id), "subscription_id": str(sub_id), "state": row.state,
                            "attempt_count": row.attempts, "created_at": timestamp(row.created_at),
                            "updated_at": timestamp(row.updated_at),
                            "attempts": [_attempt(attempt) for attempt in record.attempts]}
    outcome = OUTCOME_OF_STATE.get(JobState(row.state))
    if outcome is not None:
        body["outcome"] = outcome.value
    if row.state in (JobState.pending, JobState.retrying):
        body["next_attempt_at"] = timestamp(row.next_attempt_at)
    if row.ce_id is not None:
        body["event"] = _event(row)
    return body


def as_recovery(recovery: DeliveryRecovery) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(recovery.id), "subscription_id": str(recovery.subscription_id), "state": recovery.state,
        "since": timestamp(recovery.since), "until": timestamp(recovery.until),
        "outcomes": list(recovery.outcomes or []), "matched": recovery.matched, "requeued": recovery.requeued,
        "skipped": recovery.skipped, "created_at": timestamp(recovery.created_at),
        "updated_at": timestamp(recovery.updated_at),
    }
    if recovery.completed_at is not None:
        body["completed_at"] = timestamp(recovery.completed_at)
    return body
