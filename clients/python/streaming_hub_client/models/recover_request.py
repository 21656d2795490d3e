from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.recover_request_outcomes_type_0_item import (
    RecoverRequestOutcomesType0Item,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="RecoverRequest")


@_attrs_define
class RecoverRequest:
    """
    Attributes:
        since (datetime.datetime):
        outcomes (list[RecoverRequestOutcomesType0Item] | None | Unset):
        until (datetime.datetime | None | Unset):
    """

    since: datetime.datetime
    outcomes: list[RecoverRequestOutcomesType0Item] | None | Unset = UNSET
    until: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        since = self.since.isoformat()

        outcomes: list[str] | None | Unset
        if isinstance(self.outcomes, Unset):
            outcomes = UNSET
        elif isinstance(self.outcomes, list):
            outcomes = []
            for outcomes_type_0_item_data in self.outcomes:
                outcomes_type_0_item = outcomes_type_0_item_data.value
                outcomes.append(outcomes_type_0_item)

        else:
            outcomes = self.outcomes

        until: None | str | Unset
        if isinstance(self.until, Unset):
            until = UNSET
        elif isinstance(self.until, datetime.datetime):
            until = self.until.isoformat()
        else:
            until = self.until

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "since": since,
            }
        )
        if outcomes is not UNSET:
            field_dict["outcomes"] = outcomes
        if until is not UNSET:
            field_dict["until"] = until

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        since = datetime.datetime.fromisoformat(d.pop("since"))

        def _parse_outcomes(
            data: object,
        ) -> list[RecoverRequestOutcomesType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                outcomes_type_0 = []
                _outcomes_type_0 = data
                for outcomes_type_0_item_data in _outcomes_type_0:
                    outcomes_type_0_item = RecoverRequestOutcomesType0Item(
                        outcomes_type_0_item_data
                    )

                    outcomes_type_0.append(outcomes_type_0_item)

                return outcomes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[RecoverRequestOutcomesType0Item] | None | Unset, data)

        outcomes = _parse_outcomes(d.pop("outcomes", UNSET))

        def _parse_until(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                until_type_0 = datetime.datetime.fromisoformat(data)

                return until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        until = _parse_until(d.pop("until", UNSET))

        recover_request = cls(
            since=since,
            outcomes=outcomes,
            until=until,
        )

        return recover_request
