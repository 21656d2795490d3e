from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_options_filter_type_0 import DeliveryOptionsFilterType0
    from ..models.ordering import Ordering
    from ..models.static_header_read import StaticHeaderRead


T = TypeVar("T", bound="DeliveryOptions")


@_attrs_define
class DeliveryOptions:
    """The delivery options in force; every field is always present.

    Attributes:
        filter_ (DeliveryOptionsFilterType0 | None): A payload filter over the event's `data` (paths `data.a.b`) and
            attributes (`subject`, …), with equality, `$eq`, `$in`, `$exists`, `$gt`, `$gte`, `$lt`, `$lte`, `$prefix`,
            `$and`, `$or` and `$not` (docs/contract-notes.md N53); null: every event.
        headers (list[StaticHeaderRead]): Webhook only: up to 20 static request headers; one marked `secret` is sealed
            at rest and read back without its value. None may set `content-type`, `user-agent` or a `webhook-*` header
            (docs/contract-notes.md N54). `[]`: none.
        ordering (None | Ordering): Ordered delivery per key (docs/contract-notes.md N77), on the push kinds that keep
            order (not `eventbridge`; `pull` is always read in order): each key's events are sent one at a time, in event-
            log order, each only after the one before it was delivered or ended under `on_dead_letter`. Null: unordered.
            Asking it of a kind that cannot keep order is 422 `ordering_unsupported`.
        rate_limit_per_second (int | None): Push kinds only: at most this many deliveries per second to the destination,
            across every delivery worker (1 to 10000); jobs above the rate wait without spending retries (docs/contract-
            notes.md N56). Null: no limit.
    """

    filter_: DeliveryOptionsFilterType0 | None
    headers: list[StaticHeaderRead]
    ordering: None | Ordering
    rate_limit_per_second: int | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_options_filter_type_0 import DeliveryOptionsFilterType0  # noqa: PLC0415
        from ..models.ordering import Ordering  # noqa: PLC0415
        from ..models.static_header_read import StaticHeaderRead  # noqa: PLC0415

        filter_: dict[str, Any] | None
        if isinstance(self.filter_, DeliveryOptionsFilterType0):
            filter_ = self.filter_.to_dict()
        else:
            filter_ = self.filter_

        headers = []
        for headers_item_data in self.headers:
            headers_item = headers_item_data.to_dict()
            headers.append(headers_item)

        ordering: dict[str, Any] | None
        if isinstance(self.ordering, Ordering):
            ordering = self.ordering.to_dict()
        else:
            ordering = self.ordering

        rate_limit_per_second: int | None
        rate_limit_per_second = self.rate_limit_per_second

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "filter": filter_,
                "headers": headers,
                "ordering": ordering,
                "rate_limit_per_second": rate_limit_per_second,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_options_filter_type_0 import DeliveryOptionsFilterType0  # noqa: PLC0415
        from ..models.ordering import Ordering  # noqa: PLC0415
        from ..models.static_header_read import StaticHeaderRead  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_filter_(data: object) -> DeliveryOptionsFilterType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filter_type_0 = DeliveryOptionsFilterType0.from_dict(data)

                return filter_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliveryOptionsFilterType0 | None, data)

        filter_ = _parse_filter_(d.pop("filter"))

        headers = []
        _headers = d.pop("headers")
        for headers_item_data in _headers:
            headers_item = StaticHeaderRead.from_dict(headers_item_data)

            headers.append(headers_item)

        def _parse_ordering(data: object) -> None | Ordering:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ordering_type_0 = Ordering.from_dict(data)

                return ordering_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Ordering, data)

        ordering = _parse_ordering(d.pop("ordering"))

        def _parse_rate_limit_per_second(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rate_limit_per_second = _parse_rate_limit_per_second(
            d.pop("rate_limit_per_second")
        )

        delivery_options = cls(
            filter_=filter_,
            headers=headers,
            ordering=ordering,
            rate_limit_per_second=rate_limit_per_second,
        )

        return delivery_options
