"""The pull provider: no destination and no sender; the hub writes ``pull://<subscription id>``.

Its events are read from the event log (``hub/pull``), so it has no sink, no probe and is born active.
"""

from __future__ import annotations

from typing import ClassVar

from hub.providers.base import Provider
from hub.sinks.vocabulary import SinkKind

PULL_SCHEME = "pull://"


class PullProvider(Provider):
    kind: ClassVar[SinkKind] = SinkKind.pull
    label: ClassVar[str] = "Pull inbox"
    endpoint_label: ClassVar[str] = "Endpoint"
    sink = None
    takes_endpoint = False
    # A pull reader already reads its events in log order; an option that changes nothing is refused
    # rather than accepted as a no-op (N77).
    keeps_order = False
    ordering_refusal = ("a pull subscription is always read in event-log order; ordering applies to push "
                        "subscriptions only")

    def mask(self, endpoint: str) -> str:
        return endpoint if endpoint.startswith(PULL_SCHEME) else ""


PROVIDER = PullProvider()
