"""The hub's own ``hub.*`` lifecycle events: always in the catalog, source ``streaming-hub``.

Their ``eventKey`` is the event type as is (R-getCatalog-11); they have no ``producers[]`` row and
are always current (R-getCatalog-13). They travel on ``<prefix>streaming-hub`` like any producer's
events, so the topic is computed from the settings rather than stored here.
"""

from __future__ import annotations

from typing import Any

from hub.backbone.outbound import topic_for
from hub.config import Settings

HUB_SOURCE = "streaming-hub"

HUB_LIFECYCLE_EVENTS: tuple[dict[str, Any], ...] = (
    {
        "eventKey": "hub.destination.disabled",
        "resourceType": "destination",
        "eventType": "hub.destination.disabled",
        "schemaVersion": "1.0.0",
        "schemaMajor": 1,
        "description": "A subscription's destination was auto-disabled after sustained delivery failure.",
        "source": HUB_SOURCE,
    },
)


def hub_topic(settings: Settings | None = None) -> str:
    """The topic the hub's lifecycle events are published on (docs/contract-notes.md N17)."""
    return topic_for(HUB_SOURCE, settings)


def lifecycle_catalog_events(settings: Settings | None = None) -> list[dict[str, Any]]:
    """The lifecycle events as catalog entries, with the topic filled in."""
    topic = hub_topic(settings)
    return [{**event, "topic": topic} for event in HUB_LIFECYCLE_EVENTS]


def lifecycle_event_keys() -> frozenset[str]:
    """The event keys of the hub's own lifecycle events (all served at major 1)."""
    return frozenset(event["eventKey"] for event in HUB_LIFECYCLE_EVENTS)
