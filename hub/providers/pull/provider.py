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
    sink = None
    takes_endpoint = False

    def mask(self, endpoint: str) -> str:
        return endpoint if endpoint.startswith(PULL_SCHEME) else ""


PROVIDER = PullProvider()
