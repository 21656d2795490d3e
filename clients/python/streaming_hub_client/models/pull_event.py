from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pull_event_payload import PullEventPayload


T = TypeVar("T", bound="PullEvent")


@_attrs_define
class PullEvent:
    """
    Attributes:
        ce_id (str): The CloudEvents id: deduplicate on it across redeliveries.
        event_type (str): The event key, `resourceType.eventType`.
        payload (PullEventPayload): The producer's event payload (arbitrary JSON, no secrets).
        received_at (datetime.datetime): When the hub received the event (UTC, RFC 3339).
        schema_version (str): The event's schema version.
        seq (int): The tenant's arrival-order sequence number (the keyset key).
    """

    ce_id: str
    event_type: str
    payload: PullEventPayload
    received_at: datetime.datetime
    schema_version: str
    seq: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.pull_event_payload import PullEventPayload  # noqa: PLC0415

        ce_id = self.ce_id

        event_type = self.event_type

        payload = self.payload.to_dict()

        received_at = self.received_at.isoformat()

        schema_version = self.schema_version

        seq = self.seq

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ceId": ce_id,
                "eventType": event_type,
                "payload": payload,
                "receivedAt": received_at,
                "schemaVersion": schema_version,
                "seq": seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pull_event_payload import PullEventPayload  # noqa: PLC0415

        d = dict(src_dict)
        ce_id = d.pop("ceId")

        event_type = d.pop("eventType")

        payload = PullEventPayload.from_dict(d.pop("payload"))

        received_at = datetime.datetime.fromisoformat(d.pop("receivedAt"))

        schema_version = d.pop("schemaVersion")

        seq = d.pop("seq")

        pull_event = cls(
            ce_id=ce_id,
            event_type=event_type,
            payload=payload,
            received_at=received_at,
            schema_version=schema_version,
            seq=seq,
        )

        return pull_event
