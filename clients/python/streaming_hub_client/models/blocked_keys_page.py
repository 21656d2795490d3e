from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.blocked_key import BlockedKey


T = TypeVar("T", bound="BlockedKeysPage")


@_attrs_define
class BlockedKeysPage:
    """
    Attributes:
        blocked_keys (list[BlockedKey]):
        next_cursor (str): The next page's `after`; empty on the last page.
    """

    blocked_keys: list[BlockedKey]
    next_cursor: str

    def to_dict(self) -> dict[str, Any]:
        from ..models.blocked_key import BlockedKey  # noqa: PLC0415

        blocked_keys = []
        for blocked_keys_item_data in self.blocked_keys:
            blocked_keys_item = blocked_keys_item_data.to_dict()
            blocked_keys.append(blocked_keys_item)

        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "blocked_keys": blocked_keys,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.blocked_key import BlockedKey  # noqa: PLC0415

        d = dict(src_dict)
        blocked_keys = []
        _blocked_keys = d.pop("blocked_keys")
        for blocked_keys_item_data in _blocked_keys:
            blocked_keys_item = BlockedKey.from_dict(blocked_keys_item_data)

            blocked_keys.append(blocked_keys_item)

        next_cursor = d.pop("next_cursor")

        blocked_keys_page = cls(
            blocked_keys=blocked_keys,
            next_cursor=next_cursor,
        )

        return blocked_keys_page
