"""The providers, one line per sink kind, and the per-process set of sinks the delivery engine sends with.

Adding a kind: its module here beside the others, its line in :data:`PROVIDERS` (and its member in
``hub.sinks.vocabulary.SinkKind``, the contract's list of kinds).
"""

from __future__ import annotations


from hub.config import Settings
from hub.providers.eventbridge import provider as eventbridge
from hub.providers.pull import provider as pull
from hub.providers.rabbitmq import provider as rabbitmq
from hub.providers.sqs import provider as sqs
from hub.providers.webhook import provider as webhook
from hub.providers.base import Provider, SinkUnavailable
from hub.sinks.base import Sink

PROVIDERS: dict[str, Provider] = {provider.kind.value: provider for provider in (
    webhook.PROVIDER,
    pull.PROVIDER,
    sqs.PROVIDER,
    rabbitmq.PROVIDER,
    eventbridge.PROVIDER,
)}


def provider_for(kind: str) -> Provider:
    """The provider of a stored or requested kind; raises KeyError for a value that is not a kind."""
    return PROVIDERS[kind]


def find_provider(kind: str) -> Provider | None:
    """The provider of ``kind``; None for a value that is not a kind."""
    return PROVIDERS.get(kind)


def kinds() -> tuple[str, ...]:
    """Every registered kind, in registry order."""
    return tuple(PROVIDERS)


def kinds_where(capability: str) -> tuple[str, ...]:
    """The kinds whose provider has ``capability`` (an attribute such as ``takes_grant``) true."""
    return tuple(kind for kind, provider in PROVIDERS.items() if getattr(provider, capability))


class SinkSet:
    """One sink instance per kind per process, made on first use from the kind's provider."""

    def __init__(self, *, settings: Settings) -> None:
        self._settings = settings
        self._sinks: dict[str, Sink] = {}

    def get(self, kind: str) -> Sink:
        sink = self._sinks.get(kind)
        if sink is None:
            provider = PROVIDERS.get(kind)
            if provider is None:
                raise SinkUnavailable(f"no sink delivers the kind {kind!r}")
            sink = self._sinks[kind] = provider.sink_class()(settings=self._settings)
        return sink

    async def close(self) -> None:
        for sink in self._sinks.values():
            await sink.close()
        self._sinks.clear()


__all__ = ["PROVIDERS", "SinkSet", "SinkUnavailable", "find_provider", "kinds", "kinds_where", "provider_for"]
