from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_job_record_outcome import DeliveryJobRecordOutcome
from ..models.delivery_job_record_state import DeliveryJobRecordState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_attempt_record import DeliveryAttemptRecord
    from ..models.delivery_event import DeliveryEvent


T = TypeVar("T", bound="DeliveryJobRecord")


@_attrs_define
class DeliveryJobRecord:
    """
    Attributes:
        attempt_count (int):
        attempts (list[DeliveryAttemptRecord]):
        created_at (datetime.datetime):
        id (UUID):
        state (DeliveryJobRecordState):
        subscription_id (UUID):
        updated_at (datetime.datetime):
        event (DeliveryEvent | Unset):
        next_attempt_at (datetime.datetime | Unset):
        outcome (DeliveryJobRecordOutcome | Unset):
    """

    attempt_count: int
    attempts: list[DeliveryAttemptRecord]
    created_at: datetime.datetime
    id: UUID
    state: DeliveryJobRecordState
    subscription_id: UUID
    updated_at: datetime.datetime
    event: DeliveryEvent | Unset = UNSET
    next_attempt_at: datetime.datetime | Unset = UNSET
    outcome: DeliveryJobRecordOutcome | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_attempt_record import DeliveryAttemptRecord  # noqa: PLC0415
        from ..models.delivery_event import DeliveryEvent  # noqa: PLC0415

        attempt_count = self.attempt_count

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        created_at = self.created_at.isoformat()

        id = str(self.id)

        state = self.state.value

        subscription_id = str(self.subscription_id)

        updated_at = self.updated_at.isoformat()

        event: dict[str, Any] | Unset = UNSET
        if not isinstance(self.event, Unset):
            event = self.event.to_dict()

        next_attempt_at: str | Unset = UNSET
        if not isinstance(self.next_attempt_at, Unset):
            next_attempt_at = self.next_attempt_at.isoformat()

        outcome: str | Unset = UNSET
        if not isinstance(self.outcome, Unset):
            outcome = self.outcome.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt_count": attempt_count,
                "attempts": attempts,
                "created_at": created_at,
                "id": id,
                "state": state,
                "subscription_id": subscription_id,
                "updated_at": updated_at,
            }
        )
        if event is not UNSET:
            field_dict["event"] = event
        if next_attempt_at is not UNSET:
            field_dict["next_attempt_at"] = next_attempt_at
        if outcome is not UNSET:
            field_dict["outcome"] = outcome

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_attempt_record import DeliveryAttemptRecord  # noqa: PLC0415
        from ..models.delivery_event import DeliveryEvent  # noqa: PLC0415

        d = dict(src_dict)
        attempt_count = d.pop("attempt_count")

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = DeliveryAttemptRecord.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = UUID(d.pop("id"))

        state = DeliveryJobRecordState(d.pop("state"))

        subscription_id = UUID(d.pop("subscription_id"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        _event = d.pop("event", UNSET)
        event: DeliveryEvent | Unset
        if isinstance(_event, Unset):
            event = UNSET
        else:
            event = DeliveryEvent.from_dict(_event)

        _next_attempt_at = d.pop("next_attempt_at", UNSET)
        next_attempt_at: datetime.datetime | Unset
        if isinstance(_next_attempt_at, Unset):
            next_attempt_at = UNSET
        else:
            next_attempt_at = datetime.datetime.fromisoformat(_next_attempt_at)

        _outcome = d.pop("outcome", UNSET)
        outcome: DeliveryJobRecordOutcome | Unset
        if isinstance(_outcome, Unset):
            outcome = UNSET
        else:
            outcome = DeliveryJobRecordOutcome(_outcome)

        delivery_job_record = cls(
            attempt_count=attempt_count,
            attempts=attempts,
            created_at=created_at,
            id=id,
            state=state,
            subscription_id=subscription_id,
            updated_at=updated_at,
            event=event,
            next_attempt_at=next_attempt_at,
            outcome=outcome,
        )

        return delivery_job_record
