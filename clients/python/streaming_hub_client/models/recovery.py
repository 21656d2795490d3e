from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.recovery_outcomes_item import RecoveryOutcomesItem
from ..models.recovery_state import RecoveryState
from ..types import UNSET, Unset

T = TypeVar("T", bound="Recovery")


@_attrs_define
class Recovery:
    """
    Attributes:
        created_at (datetime.datetime):
        id (UUID):
        matched (int):
        outcomes (list[RecoveryOutcomesItem]):
        requeued (int):
        since (datetime.datetime):
        skipped (int):
        state (RecoveryState):
        subscription_id (UUID):
        until (datetime.datetime):
        updated_at (datetime.datetime):
        completed_at (datetime.datetime | Unset):
    """

    created_at: datetime.datetime
    id: UUID
    matched: int
    outcomes: list[RecoveryOutcomesItem]
    requeued: int
    since: datetime.datetime
    skipped: int
    state: RecoveryState
    subscription_id: UUID
    until: datetime.datetime
    updated_at: datetime.datetime
    completed_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        matched = self.matched

        outcomes = []
        for outcomes_item_data in self.outcomes:
            outcomes_item = outcomes_item_data.value
            outcomes.append(outcomes_item)

        requeued = self.requeued

        since = self.since.isoformat()

        skipped = self.skipped

        state = self.state.value

        subscription_id = str(self.subscription_id)

        until = self.until.isoformat()

        updated_at = self.updated_at.isoformat()

        completed_at: str | Unset = UNSET
        if not isinstance(self.completed_at, Unset):
            completed_at = self.completed_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "created_at": created_at,
                "id": id,
                "matched": matched,
                "outcomes": outcomes,
                "requeued": requeued,
                "since": since,
                "skipped": skipped,
                "state": state,
                "subscription_id": subscription_id,
                "until": until,
                "updated_at": updated_at,
            }
        )
        if completed_at is not UNSET:
            field_dict["completed_at"] = completed_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = UUID(d.pop("id"))

        matched = d.pop("matched")

        outcomes = []
        _outcomes = d.pop("outcomes")
        for outcomes_item_data in _outcomes:
            outcomes_item = RecoveryOutcomesItem(outcomes_item_data)

            outcomes.append(outcomes_item)

        requeued = d.pop("requeued")

        since = datetime.datetime.fromisoformat(d.pop("since"))

        skipped = d.pop("skipped")

        state = RecoveryState(d.pop("state"))

        subscription_id = UUID(d.pop("subscription_id"))

        until = datetime.datetime.fromisoformat(d.pop("until"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        _completed_at = d.pop("completed_at", UNSET)
        completed_at: datetime.datetime | Unset
        if isinstance(_completed_at, Unset):
            completed_at = UNSET
        else:
            completed_at = datetime.datetime.fromisoformat(_completed_at)

        recovery = cls(
            created_at=created_at,
            id=id,
            matched=matched,
            outcomes=outcomes,
            requeued=requeued,
            since=since,
            skipped=skipped,
            state=state,
            subscription_id=subscription_id,
            until=until,
            updated_at=updated_at,
            completed_at=completed_at,
        )

        return recovery
