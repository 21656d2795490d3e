"""The hub's own lifecycle events (``hub.*``): always in the catalog, always current, major 1.

Their ``eventKey`` is the event type as is (R-getCatalog-11) and their source is ``streaming-hub``,
which has no producer row (R-getCatalog-13).
"""

from __future__ import annotations

from typing import Any

HUB_SOURCE = "streaming-hub"

HUB_LIFECYCLE_EVENTS: tuple[dict[str, Any], ...] = (
    {
        "eventKey": "hub.destination.disabled",
        "resourceType": "hub",
        "eventType": "hub.destination.disabled",
        "schemaVersion": "1.0.0",
        "schemaMajor": 1,
        "description": "A subscription's destination was disabled after sustained delivery failure.",
        "source": HUB_SOURCE,
        "topic": "",
    },
)


def lifecycle_event_keys() -> frozenset[str]:
    """The ``eventKey`` of every hub lifecycle event (all at schema major 1)."""
    return frozenset(event["eventKey"] for event in HUB_LIFECYCLE_EVENTS)
