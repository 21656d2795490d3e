from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.resumed_key_action import ResumedKeyAction
from ..types import UNSET, Unset

T = TypeVar("T", bound="ResumedKey")


@_attrs_define
class ResumedKey:
    """
    Attributes:
        action (ResumedKeyAction):
        job_id (UUID): `retry`: the new head job, due now; `skip`: the head passed over.
        key (str): The key's value (the event's ordering attribute, `partitionkey` by default).
    """

    action: ResumedKeyAction
    job_id: UUID
    key: str

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        job_id = str(self.job_id)

        key = self.key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "job_id": job_id,
                "key": key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = ResumedKeyAction(d.pop("action"))

        job_id = UUID(d.pop("job_id"))

        key = d.pop("key")

        resumed_key = cls(
            action=action,
            job_id=job_id,
            key=key,
        )

        return resumed_key
