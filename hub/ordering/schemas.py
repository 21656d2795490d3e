"""The served shapes of the blocked-keys routes (N77), an extension of the contract, and their projections."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import ConfigDict, Field, StrictStr

from hub.schema_base import ClosedModel, Int64, omittable
from hub.subscription.projection import timestamp

ResumeAction = Literal["retry", "skip"]
KEY_DOC = "The key's value (the event's ordering attribute, `partitionkey` by default)."
ACTION_DOC = ("`retry`: a new job for the head's event becomes the key's head, due now (the dead-lettered job "
              "stays as recorded); `skip`: the head stays dead-lettered, an attempt records the skip, and the "
              "key's next event is sent.")


class BlockedHeadEvent(ClosedModel):
    model_config = ConfigDict(title="BlockedHeadEvent")

    id: str = Field(description="The CloudEvent id.")
    seq: Int64 = Field(description="The event's sequence in the tenant's event log.")
    type: str


class BlockedHeadError(ClosedModel):
    model_config = ConfigDict(title="BlockedHeadError")

    attempted_at: datetime
    outcome: str
    status_code: int
    error_class: str
    detail: str


class BlockedHead(ClosedModel):
    model_config = ConfigDict(title="BlockedHead")

    job_id: uuid.UUID = Field(description="The dead-lettered job that blocks the key (see the delivery log).")
    attempt_count: int
    event: BlockedHeadEvent = omittable()  # absent once retention removed the event
    last_error: BlockedHeadError = omittable()  # the head's last attempt; absent when it has none


class BlockedKey(ClosedModel):
    model_config = ConfigDict(title="BlockedKey")

    key: str = Field(description=KEY_DOC)
    blocked_at: datetime = Field(description="When the head dead-lettered and parked the key.")
    waiting: int = Field(description="How many later events of the key wait, stored, behind the head.")
    head: BlockedHead


class BlockedKeysPage(ClosedModel):
    model_config = ConfigDict(title="BlockedKeysPage")

    blocked_keys: list[BlockedKey]
    next_cursor: str = Field(description="The next page's `after`; empty on the last page.")


class ResumeBlockedKeyRequest(ClosedModel):
    model_config = ConfigDict(title="ResumeBlockedKeyRequest")

    key: StrictStr = Field(description=KEY_DOC)
    action: ResumeAction = Field(description=ACTION_DOC)


class ResumedKey(ClosedModel):
    model_config = ConfigDict(title="ResumedKey")

    key: str = Field(description=KEY_DOC)
    action: ResumeAction
    job_id: uuid.UUID = Field(description="`retry`: the new head job, due now; `skip`: the head passed over.")


class ResumeBlockedKeyResponse(ClosedModel):
    model_config = ConfigDict(title="ResumeBlockedKeyResponse")

    resumed: ResumedKey


def as_blocked_key(row: Any) -> dict[str, Any]:
    """A ``BlockedKey``: the head's event and last error only when they exist."""
    head: dict[str, Any] = {"job_id": str(row.head_job_id), "attempt_count": row.attempts}
    if row.ce_id is not None:
        head["event"] = {"id": row.ce_id, "seq": row.event_seq, "type": row.event_type}
    if row.attempted_at is not None:
        head["last_error"] = {"attempted_at": timestamp(row.attempted_at), "outcome": row.outcome,
                              "status_code": row.status_code, "error_class": row.error_class, "detail": row.detail}
    return {"key": row.ordering_key, "blocked_at": timestamp(row.blocked_at), "waiting": row.waiting, "head": head}
