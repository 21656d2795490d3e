from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.get_dashboard_needs_attention_response_422_details import (
        GetDashboardNeedsAttentionResponse422Details,
    )
    from ..models.problem_errors_item import ProblemErrorsItem


T = TypeVar("T", bound="GetDashboardNeedsAttentionResponse422")


@_attrs_define
class GetDashboardNeedsAttentionResponse422:
    """
    Attributes:
        status (int):
        title (str):
        code (str | Unset):
        detail (str | Unset):
        errors (list[ProblemErrorsItem] | Unset):
        instance (str | Unset):
        type_ (str | Unset):
        details (GetDashboardNeedsAttentionResponse422Details | Unset):
    """

    status: int
    title: str
    code: str | Unset = UNSET
    detail: str | Unset = UNSET
    errors: list[ProblemErrorsItem] | Unset = UNSET
    instance: str | Unset = UNSET
    type_: str | Unset = UNSET
    details: GetDashboardNeedsAttentionResponse422Details | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.get_dashboard_needs_attention_response_422_details import (
            GetDashboardNeedsAttentionResponse422Details,  # noqa: PLC0415
        )
        from ..models.problem_errors_item import ProblemErrorsItem  # noqa: PLC0415

        status = self.status

        title = self.title

        code = self.code

        detail = self.detail

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)

        instance = self.instance

        type_ = self.type_

        details: dict[str, Any] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = self.details.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "title": title,
            }
        )
        if code is not UNSET:
            field_dict["code"] = code
        if detail is not UNSET:
            field_dict["detail"] = detail
        if errors is not UNSET:
            field_dict["errors"] = errors
        if instance is not UNSET:
            field_dict["instance"] = instance
        if type_ is not UNSET:
            field_dict["type"] = type_
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_dashboard_needs_attention_response_422_details import (
            GetDashboardNeedsAttentionResponse422Details,  # noqa: PLC0415
        )
        from ..models.problem_errors_item import ProblemErrorsItem  # noqa: PLC0415

        d = dict(src_dict)
        status = d.pop("status")

        title = d.pop("title")

        code = d.pop("code", UNSET)

        detail = d.pop("detail", UNSET)

        _errors = d.pop("errors", UNSET)
        errors: list[ProblemErrorsItem] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = ProblemErrorsItem.from_dict(errors_item_data)

                errors.append(errors_item)

        instance = d.pop("instance", UNSET)

        type_ = d.pop("type", UNSET)

        _details = d.pop("details", UNSET)
        details: GetDashboardNeedsAttentionResponse422Details | Unset
        if isinstance(_details, Unset):
            details = UNSET
        else:
            details = GetDashboardNeedsAttentionResponse422Details.from_dict(_details)

        get_dashboard_needs_attention_response_422 = cls(
            status=status,
            title=title,
            code=code,
            detail=detail,
            errors=errors,
            instance=instance,
            type_=type_,
            details=details,
        )

        get_dashboard_needs_attention_response_422.additional_properties = d
        return get_dashboard_needs_attention_response_422

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
