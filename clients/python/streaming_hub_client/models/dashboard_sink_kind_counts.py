from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DashboardSinkKindCounts")


@_attrs_define
class DashboardSinkKindCounts:
    """
    Attributes:
        eventbridge (int):
        pull (int):
        rabbitmq (int):
        sqs (int):
        webhook (int):
    """

    eventbridge: int
    pull: int
    rabbitmq: int
    sqs: int
    webhook: int

    def to_dict(self) -> dict[str, Any]:
        eventbridge = self.eventbridge

        pull = self.pull

        rabbitmq = self.rabbitmq

        sqs = self.sqs

        webhook = self.webhook

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "eventbridge": eventbridge,
                "pull": pull,
                "rabbitmq": rabbitmq,
                "sqs": sqs,
                "webhook": webhook,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        eventbridge = d.pop("eventbridge")

        pull = d.pop("pull")

        rabbitmq = d.pop("rabbitmq")

        sqs = d.pop("sqs")

        webhook = d.pop("webhook")

        dashboard_sink_kind_counts = cls(
            eventbridge=eventbridge,
            pull=pull,
            rabbitmq=rabbitmq,
            sqs=sqs,
            webhook=webhook,
        )

        return dashboard_sink_kind_counts
