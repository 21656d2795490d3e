"""Which class delivers each push sink kind, imported only when a job of that kind comes due.

Every sink class is built as ``Class(settings=settings)``. A kind whose module is not part of
this build raises :class:`SinkUnavailable`; the delivery engine ends those jobs with a recorded
outcome instead of crashing.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from hub.config import Settings
from hub.sinks.base import Sink
from hub.sinks.vocabulary import SinkKind

SINK_CLASSES: Mapping[SinkKind, str] = {
    SinkKind.webhook: "hub.sinks.webhook:WebhookSink",
    SinkKind.sqs: "hub.sinks.sqs:SqsSink",
    SinkKind.rabbitmq: "hub.sinks.rabbitmq:RabbitMQSink",
    SinkKind.eventbridge: "hub.sinks.eventbridge:EventBridgeSink",
}


class SinkUnavailable(Exception):
    """No sink class can be loaded for a kind (not a push kind, or its module is missing)."""


def load_sink_class(kind: str) -> type:
    """The class registered for ``kind``; raises SinkUnavailable when it cannot be imported."""
    try:
        target = SINK_CLASSES[SinkKind(kind)]
    except (KeyError, ValueError):
        raise SinkUnavailable(f"no sink delivers the kind {kind!r}") from None
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:  # the sink module, or a library it needs, is not installed
        raise SinkUnavailable(f"the {kind} sink is not part of this build ({exc.name})") from None
    try:
        return getattr(module, class_name)
    except AttributeError:
        raise SinkUnavailable(f"the {kind} sink module has no {class_name}") from None


class SinkSet:
    """One sink instance per kind per process, made on first use."""

    def __init__(self, *, settings: Settings) -> None:
        self._settings = settings
        self._sinks: dict[str, Sink] = {}

    def get(self, kind: str) -> Sink:
        sink = self._sinks.get(kind)
        if sink is None:
            sink = self._sinks[kind] = load_sink_class(kind)(settings=self._settings)
        return sink

    async def close(self) -> None:
        for sink in self._sinks.values():
            await sink.close()
        self._sinks.clear()
