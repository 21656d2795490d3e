"""The REST triage's bodies and answers (the stream's names, as strings)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from hub.consumer.messages import rfc3339
from hub.consumer.triage import DeadLetter
from hub.schema_base import ClosedModel

ACTIONS = ("REPLAY", "DISCARD", "LEAVE")


class DeadLetteredEvent(ClosedModel):
    id: str = Field(description="The message's key: name it in an action (stable across requests).")
    reason: Literal["UNSPECIFIED", "DELIVERY_LIMIT", "EXPIRED", "MAXLEN"]
    origin_queue: str = Field(description="The durable queue it was dead-lettered from.")
    delivery_count: int
    dead_lettered_at: str | None = Field(description="When it was dead-lettered (RFC 3339), if the broker said.")
    resource_id: str
    event: dict[str, Any] = Field(description="The consumer Event: event_type, principal_identity, occurred_at, "
                                              "published_at, message.")


class DeadLetterList(ClosedModel):
    dead_letters: list[DeadLetteredEvent] = Field(description="The head of the dead-letter queue, oldest first.")


class TriageAction(ClosedModel):
    id: str = Field(min_length=1, max_length=64, description="A dead-lettered event's `id`.")
    action: Literal["REPLAY", "DISCARD", "LEAVE"]


class TriageRequest(ClosedModel):
    actions: list[TriageAction] = Field(min_length=1, max_length=100)


class TriageOutcome(ClosedModel):
    id: str
    action: Literal["REPLAY", "DISCARD", "LEAVE"]
    outcome: Literal["UNSPECIFIED", "REPLAYED", "DISCARDED", "LEFT", "ORIGIN_QUEUE_DELETED", "REPLAY_FAILED"]
    detail: str = Field(description="Why, for anything but REPLAYED, DISCARDED and LEFT; may be empty.")


class TriageResponse(ClosedModel):
    outcomes: list[TriageOutcome] = Field(description="One per requested action, in the request's order.")


def as_dead_letter(item: DeadLetter) -> dict[str, Any]:
    return {"id": item.key, "reason": item.reason.name, "origin_queue": item.origin_queue,
            "delivery_count": item.delivery_count,
            "dead_lettered_at": rfc3339(item.dead_lettered_at) if item.dead_lettered_at else None,
            "resource_id": item.event.resource_id or "", "event": item.event.as_json()}
