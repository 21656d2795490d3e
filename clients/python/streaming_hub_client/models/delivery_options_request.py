from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_options_request_filter_type_0 import (
        DeliveryOptionsRequestFilterType0,
    )
    from ..models.ordering_request import OrderingRequest
    from ..models.static_header import StaticHeader


T = TypeVar("T", bound="DeliveryOptionsRequest")


@_attrs_define
class DeliveryOptionsRequest:
    """The whole set of delivery options: a field left out is null (no filter, no headers, no limit,
    unordered). Any other field is 422 ``validation_error``.

        Attributes:
            filter_ (DeliveryOptionsRequestFilterType0 | None | Unset): A payload filter over the event's `data` (paths
                `data.a.b`) and attributes (`subject`, …), with equality, `$eq`, `$in`, `$exists`, `$gt`, `$gte`, `$lt`, `$lte`,
                `$prefix`, `$and`, `$or` and `$not` (docs/contract-notes.md N53); null: every event.
            headers (list[StaticHeader] | None | Unset): Webhook only: up to 20 static request headers; one marked `secret`
                is sealed at rest and read back without its value. None may set `content-type`, `user-agent` or a `webhook-*`
                header (docs/contract-notes.md N54). Null or `[]`: none.
            ordering (None | OrderingRequest | Unset): Ordered delivery per key (docs/contract-notes.md N77), on the push
                kinds that keep order (not `eventbridge`; `pull` is always read in order): each key's events are sent one at a
                time, in event-log order, each only after the one before it was delivered or ended under `on_dead_letter`. Null:
                unordered. Asking it of a kind that cannot keep order is 422 `ordering_unsupported`.
            rate_limit_per_second (int | None | Unset): Push kinds only: at most this many deliveries per second to the
                destination, across every delivery worker (1 to 10000); jobs above the rate wait without spending retries
                (docs/contract-notes.md N56). Null: no limit.
    """

    filter_: DeliveryOptionsRequestFilterType0 | None | Unset = UNSET
    headers: list[StaticHeader] | None | Unset = UNSET
    ordering: None | OrderingRequest | Unset = UNSET
    rate_limit_per_second: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_options_request_filter_type_0 import (
            DeliveryOptionsRequestFilterType0,  # noqa: PLC0415
        )
        from ..models.ordering_request import OrderingRequest  # noqa: PLC0415
        from ..models.static_header import StaticHeader  # noqa: PLC0415

        filter_: dict[str, Any] | None | Unset
        if isinstance(self.filter_, Unset):
            filter_ = UNSET
        elif isinstance(self.filter_, DeliveryOptionsRequestFilterType0):
            filter_ = self.filter_.to_dict()
        else:
            filter_ = self.filter_

        headers: list[dict[str, Any]] | None | Unset
        if isinstance(self.headers, Unset):
            headers = UNSET
        elif isinstance(self.headers, list):
            headers = []
            for headers_type_0_item_data in self.headers:
                headers_type_0_item = headers_type_0_item_data.to_dict()
                headers.append(headers_type_0_item)

        else:
            headers = self.headers

        ordering: dict[str, Any] | None | Unset
        if isinstance(self.ordering, Unset):
            ordering = UNSET
        elif isinstance(self.ordering, OrderingRequest):
            ordering = self.ordering.to_dict()
        else:
            ordering = self.ordering

        rate_limit_per_second: int | None | Unset
        if isinstance(self.rate_limit_per_second, Unset):
            rate_limit_per_second = UNSET
        else:
            rate_limit_per_second = self.rate_limit_per_second

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if headers is not UNSET:
            field_dict["headers"] = headers
        if ordering is not UNSET:
            field_dict["ordering"] = ordering
        if rate_limit_per_second is not UNSET:
            field_dict["rate_limit_per_second"] = rate_limit_per_second

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_options_request_filter_type_0 import (
            DeliveryOptionsRequestFilterType0,  # noqa: PLC0415
        )
        from ..models.ordering_request import OrderingRequest  # noqa: PLC0415
        from ..models.static_header import StaticHeader  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_filter_(
            data: object,
        ) -> DeliveryOptionsRequestFilterType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filter_type_0 = DeliveryOptionsRequestFilterType0.from_dict(data)

                return filter_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliveryOptionsRequestFilterType0 | None | Unset, data)

        filter_ = _parse_filter_(d.pop("filter", UNSET))

        def _parse_headers(data: object) -> list[StaticHeader] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                headers_type_0 = []
                _headers_type_0 = data
                for headers_type_0_item_data in _headers_type_0:
                    headers_type_0_item = StaticHeader.from_dict(
                        headers_type_0_item_data
                    )

                    headers_type_0.append(headers_type_0_item)

                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[StaticHeader] | None | Unset, data)

        headers = _parse_headers(d.pop("headers", UNSET))

        def _parse_ordering(data: object) -> None | OrderingRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ordering_type_0 = OrderingRequest.from_dict(data)

                return ordering_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OrderingRequest | Unset, data)

        ordering = _parse_ordering(d.pop("ordering", UNSET))

        def _parse_rate_limit_per_second(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit_per_second = _parse_rate_limit_per_second(
            d.pop("rate_limit_per_second", UNSET)
        )

        delivery_options_request = cls(
            filter_=filter_,
            headers=headers,
            ordering=ordering,
            rate_limit_per_second=rate_limit_per_second,
        )

        return delivery_options_request
