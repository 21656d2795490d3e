"""The wire shape of ``GET /v1/events``: the documented models and the fast row projection.

The route writes its body with orjson straight from the log rows (the models document it). A
payload that is a JSON object is passed on byte for byte as the producer sent it. The contract
types ``payload`` as an object, so other data is wrapped the way the CloudEvents JSON format
carries it: ``{"data": <value>}`` for a JSON value that is not an object, ``{"data_base64":
"<text>"}`` for binary data, and ``{}`` for an event without data.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson
from pydantic import Field

from hub.pull.service import LogRow, Page
from hub.schema_base import ClosedModel, Int64
from hub.subscription.projection import timestamp


class PullEvent(ClosedModel):
    seq: Int64 = Field(description="The tenant's arrival-order sequence number (the keyset key).")
    ceId: str = Field(description="The CloudEvents id: deduplicate on it across redeliveries.")
    eventType: str = Field(description="The event key, `resourceType.eventType`.")
    schemaVersion: str = Field(description="The event's schema version.")
    receivedAt: datetime = Field(description="When the hub received the event (UTC, RFC 3339).")
    payload: dict[str, Any] = Field(description="The producer's event payload (arbitrary JSON, no secrets).")


class PullEventsResponse(ClosedModel):
    events: list[PullEvent] = Field(description="A page of events in ascending `seq` order.")
    next_cursor: Int64 | None = Field(description="The page's last `seq` when it filled to `limit`, else null.")


def payload(data: str | None, base64: bool) -> Any:
    """The event's ``payload``: object data verbatim, anything else wrapped (see the module doc)."""
    if data is None:
        return {}
    if data.lstrip().startswith("{"):
        return orjson.Fragment(data)
    return {"data_base64" if base64 else "data": orjson.Fragment(data)}


def as_pull_event(row: LogRow, base64: bool, received: str) -> dict[str, Any]:
    seq, ce_id, event_type, _source, _major, _scope, schema_version, _received_at, data = row
    return {"seq": seq, "ceId": ce_id, "eventType": event_type, "schemaVersion": schema_version,
            "receivedAt": received, "payload": payload(data, base64)}


def page_body(page: Page) -> bytes:
    """The JSON body of a page."""
    base64 = page.base64_seqs
    events = []
    last_received, received = None, ""
    for row in page.rows:
        if row[7] != last_received:  # an ingest batch stores one receive time: format it once
            last_received, received = row[7], timestamp(row[7])
        events.append(as_pull_event(row, row[0] in base64, received))
    return orjson.dumps({"events": events, "next_cursor": page.next_cursor})
