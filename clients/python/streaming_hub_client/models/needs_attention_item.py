from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Generator, TextIO, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.needs_attention_item_attention_reasons_item import (
    NeedsAttentionItemAttentionReasonsItem,
)
from ..models.sink_kind import SinkKind
from ..models.verification_state import VerificationState
from ..types import UNSET, Unset

T = TypeVar("T", bound="NeedsAttentionItem")


@_attrs_define
class NeedsAttentionItem:
    """
    Attributes:
        attention_reasons (list[NeedsAttentionItemAttentionReasonsItem]):
        auto_disabled (bool):
        disabled_reason (str):
        enabled (bool):
        last_failure_at (datetime.datetime | None):
        last_success_at (datetime.datetime | None):
        period_dead_lettered_attempts (int):
        period_delivery_attempts (int):
        period_failed_attempts (int):
        sink_kind (SinkKind): Where a subscription's events go (the contract's ``SinkKind``).
        subscription_id (UUID):
        verification_state (VerificationState):
    """

    attention_reasons: list[NeedsAttentionItemAttentionReasonsItem]
    auto_disabled: bool
    disabled_reason: str
    enabled: bool
    last_failure_at: datetime.datetime | None
    last_success_at: datetime.datetime | None
    period_dead_lettered_attempts: int
    period_delivery_attempts: int
    period_failed_attempts: int
    sink_kind: SinkKind
    subscription_id: UUID
    verification_state: VerificationState

    def to_dict(self) -> dict[str, Any]:
        attention_reasons = []
        for attention_reasons_item_data in self.attention_reasons:
            attention_reasons_item = attention_reasons_item_data.value
            attention_reasons.append(attention_reasons_item)

        auto_disabled = self.auto_disabled

        disabled_reason = self.disabled_reason

        enabled = self.enabled

        last_failure_at: None | str
        if isinstance(self.last_failure_at, datetime.datetime):
            last_failure_at = self.last_failure_at.isoformat()
        else:
            last_failure_at = self.last_failure_at

        last_success_at: None | str
        if isinstance(self.last_success_at, datetime.datetime):
            last_success_at = self.last_success_at.isoformat()
        else:
            last_success_at = self.last_success_at

        period_dead_lettered_attempts = self.period_dead_lettered_attempts

        period_delivery_attempts = self.period_delivery_attempts

        period_failed_attempts = self.period_failed_attempts

        sink_kind = self.sink_kind.value

        subscription_id = str(self.subscription_id)

        verification_state = self.verification_state.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attention_reasons": attention_reasons,
                "auto_disabled": auto_disabled,
                "disabled_reason": disabled_reason,
                "enabled": enabled,
                "last_failure_at": last_failure_at,
                "last_success_at": last_success_at,
                "period_dead_lettered_attempts": period_dead_lettered_attempts,
                "period_delivery_attempts": period_delivery_attempts,
                "period_failed_attempts": period_failed_attempts,
                "sink_kind": sink_kind,
                "subscription_id": subscription_id,
                "verification_state": verification_state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attention_reasons = []
        _attention_reasons = d.pop("attention_reasons")
        for attention_reasons_item_data in _attention_reasons:
            attention_reasons_item = NeedsAttentionItemAttentionReasonsItem(
                attention_reasons_item_data
            )

            attention_reasons.append(attention_reasons_item)

        auto_disabled = d.pop("auto_disabled")

        disabled_reason = d.pop("disabled_reason")

        enabled = d.pop("enabled")

        def _parse_last_failure_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_failure_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_failure_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_failure_at = _parse_last_failure_at(d.pop("last_failure_at"))

        def _parse_last_success_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_success_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_success_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_success_at = _parse_last_success_at(d.pop("last_success_at"))

        period_dead_lettered_attempts = d.pop("period_dead_lettered_attempts")

        period_delivery_attempts = d.pop("period_delivery_attempts")

        period_failed_attempts = d.pop("period_failed_attempts")

        sink_kind = SinkKind(d.pop("sink_kind"))

        subscription_id = UUID(d.pop("subscription_id"))

        verification_state = VerificationState(d.pop("verification_state"))

        needs_attention_item = cls(
            attention_reasons=attention_reasons,
            auto_disabled=auto_disabled,
            disabled_reason=disabled_reason,
            enabled=enabled,
            last_failure_at=last_failure_at,
            last_success_at=last_success_at,
            period_dead_lettered_attempts=period_dead_lettered_attempts,
            period_delivery_attempts=period_delivery_attempts,
            period_failed_attempts=period_failed_attempts,
            sink_kind=sink_kind,
            subscription_id=subscription_id,
            verification_state=verification_state,
        )

        return needs_attention_item
