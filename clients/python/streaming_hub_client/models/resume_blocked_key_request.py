from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.resume_blocked_key_request_action import ResumeBlockedKeyRequestAction
from ..types import UNSET, Unset

T = TypeVar("T", bound="ResumeBlockedKeyRequest")


@_attrs_define
class ResumeBlockedKeyRequest:
    """
    Attributes:
        action (ResumeBlockedKeyRequestAction): `retry`: a new job for the head's event becomes the key's head, due now
            (the dead-lettered job stays as recorded); `skip`: the head stays dead-lettered, an attempt records the skip,
            and the key's next event is sent.
        key (str): The key's value (the event's ordering attribute, `partitionkey` by default).
    """

    action: ResumeBlockedKeyRequestAction
    key: str

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        key = self.key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "key": key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = ResumeBlockedKeyRequestAction(d.pop("action"))

        key = d.pop("key")

        resume_blocked_key_request = cls(
            action=action,
            key=key,
        )

        return resume_blocked_key_request
