from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DashboardChannelCounts")


@_attrs_define
class DashboardChannelCounts:
    """
    Attributes:
        pull (int):
        push (int):
    """

    pull: int
    push: int

    def to_dict(self) -> dict[str, Any]:
        pull = self.pull

        push = self.push

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pull": pull,
                "push": push,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pull = d.pop("pull")

        push = d.pop("push")

        dashboard_channel_counts = cls(
            pull=pull,
            push=push,
        )

        return dashboard_channel_counts
