"""The inventory's answers: one durable queue's state, and a page of them."""

from __future__ import annotations

from pydantic import Field

from hub.consumer.schemas import FilterGroup
from hub.schema_base import ClosedModel


class DurableQueue(ClosedModel):
    queue_id: str = Field(description="The queue's id, as given at create (or generated).")
    filter_groups: list[FilterGroup] = Field(description="The filter groups the queue is bound by.")
    depth: int | None = Field(description="Messages ready in the queue; null when the broker no longer has it.")
    unacknowledged: int = Field(description="Deliveries held by open streams and not yet acknowledged.")
    consumers: int | None = Field(description="Consumers attached now; null when the broker no longer has it.")
    last_consumer_at: str = Field(description="When a consumer was last attached (RFC 3339).")
    idle_expires_at: str | None = Field(description="When the queue is deleted if no consumer attaches before "
                                                    "(RFC 3339); null while one is attached.")
    created_at: str = Field(description="When the queue was created (RFC 3339).")


class DurableQueueResponse(ClosedModel):
    queue: DurableQueue


class DurableQueueList(ClosedModel):
    queues: list[DurableQueue] = Field(description="The tenant's durable queues, by queue id.")
    next_cursor: str | None = Field(description="Pass as `after` for the next page; null on the last page.")
