from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.needs_attention_item import NeedsAttentionItem


T = TypeVar("T", bound="NeedsAttentionPage")


@_attrs_define
class NeedsAttentionPage:
    """
    Attributes:
        items (list[NeedsAttentionItem]):
        next_cursor (str):
        snapshot_at (datetime.datetime):
        window_end (datetime.datetime):
        window_start (datetime.datetime):
    """

    items: list[NeedsAttentionItem]
    next_cursor: str
    snapshot_at: datetime.datetime
    window_end: datetime.datetime
    window_start: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from ..models.needs_attention_item import NeedsAttentionItem  # noqa: PLC0415

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        next_cursor = self.next_cursor

        snapshot_at = self.snapshot_at.isoformat()

        window_end = self.window_end.isoformat()

        window_start = self.window_start.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "items": items,
                "next_cursor": next_cursor,
                "snapshot_at": snapshot_at,
                "window_end": window_end,
                "window_start": window_start,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.needs_attention_item import NeedsAttentionItem  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = NeedsAttentionItem.from_dict(items_item_data)

            items.append(items_item)

        next_cursor = d.pop("next_cursor")

        snapshot_at = datetime.datetime.fromisoformat(d.pop("snapshot_at"))

        window_end = datetime.datetime.fromisoformat(d.pop("window_end"))

        window_start = datetime.datetime.fromisoformat(d.pop("window_start"))

        needs_attention_page = cls(
            items=items,
            next_cursor=next_cursor,
            snapshot_at=snapshot_at,
            window_end=window_end,
            window_start=window_start,
        )

        return needs_attention_page
