"""The REST shapes of seed 000's consumer API: request bodies (validated) and answers (documented).

A filter group is parsed again by :func:`hub.consumer.filters.groups_from_json` once it validated, so
the REST and gRPC faces share one rule for what a group may bind (``check_groups``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator

from hub.consumer import filters
from hub.consumer.filters import FilterType, groups_from_json, parse_filter_type

QUEUE_ID_RULE = "Must match `^[A-Za-z0-9._-]{1,200}$`; queue ids share one deployment-wide namespace."


class ResourceFilter(BaseModel):
    filter_type: FilterType = Field(default=FilterType.unspecified,
                                    description="`eq` (exact), `starts_with_lazy` (shallow prefix), "
                                                "`starts_with_greedy` (deep prefix); `unspecified` means `eq`.")
    resource_id: str = Field(default="", description="The resource id, or the prefix, e.g. `/uploads/`.")

    @field_validator("filter_type", mode="before")
    @classmethod
    def _filter_type(cls, value: Any) -> FilterType:
        return parse_filter_type(value)  # also the proto's names and numbers, as the gRPC face takes them


class FilterGroup(BaseModel):
    """One filter group as JSON (the domain's is :class:`hub.consumer.filters.FilterGroup`)."""

    event_type: str = Field(default="", description="The event type; empty selects every type.")
    filters: list[ResourceFilter] = Field(default_factory=list,
                                          description="Resource filters (any matches); none selects every "
                                                      "event of the type.")


def domain_groups(groups: list[FilterGroup], field: str) -> tuple[filters.FilterGroup, ...]:
    """The validated groups as the domain's filter groups; InvalidFilter when one cannot bind."""
    return groups_from_json([group.model_dump(mode="json") for group in groups], field)


class CreateDurableQueueRequest(BaseModel):
    filter_groups: list[FilterGroup] = Field(default_factory=list,
                                              description="Filters to apply; empty adds every event.")
    queue_id: str = Field(default="", description="Optional; empty means the server generates one. "
                                                  + QUEUE_ID_RULE)


class CreateDurableQueueResponse(BaseModel):
    queue_id: str = Field(description="Save this, together with your filter_groups.")
    created: bool = Field(description="`true` when this call created the queue (or generated its id).")


class UpdateDurableQueueRequest(BaseModel):
    queue_id: str = Field(description=QUEUE_ID_RULE)
    current_filter_groups: list[FilterGroup] = Field(default_factory=list,
                                                      description="The queue's filters now (informative).")
    new_filter_groups: list[FilterGroup] = Field(default_factory=list, description="The queue's filters next.")


class SuccessResponse(BaseModel):
    success: bool

