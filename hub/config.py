"""The hub's settings object: every feature's and worker's group of ``HUB_*`` settings, composed.

The groups live in :mod:`hub.settings`, one per feature and per worker; this class only joins them, so
``get_settings().deliver_batch_size`` reads ``HUB_DELIVER_BATCH_SIZE`` as it always did (also from
``.local/env``). docs/configuration.md lists every setting.
"""

from __future__ import annotations

from functools import lru_cache

from hub.settings.access import AuthSettings, EgressSettings, SecretsSettings
from hub.settings.base import LOCAL_ENV_FILE, REPO_ROOT
from hub.settings.platform import ApiSettings, KafkaSettings, ProcessSettings, StorageSettings
from hub.settings.reads import CatalogSettings, ReadSettings
from hub.settings.seeds import BrokerSettings, ConsumerSettings, PublisherSettings
from hub.settings.sinks import SinkSettings
from hub.settings.workers import DeliverSettings, IngestSettings, SweepSettings

__all__ = ["LOCAL_ENV_FILE", "REPO_ROOT", "Settings", "get_settings"]


class Settings(  # the groups, in the order docs/configuration.md lists them
    StorageSettings, KafkaSettings, IngestSettings, ApiSettings, PublisherSettings, ConsumerSettings,
    AuthSettings, SecretsSettings, EgressSettings, SinkSettings, DeliverSettings, ReadSettings, SweepSettings,
    BrokerSettings, CatalogSettings, ProcessSettings,
):
    """Every tunable of the hub: the union of the feature and worker groups of :mod:`hub.settings`."""

    def relay_metrics_address(self) -> tuple[int, str]:
        """`hub consumer-relay`'s metrics port and host: its own settings, else ingest's (as before)."""
        return _own_or_ingest(self, self.consumer_relay_metrics_port, self.consumer_relay_metrics_host)

    def dlq_observer_metrics_address(self) -> tuple[int, str]:
        """`hub dlq-observer`'s metrics port and host: its own settings, else ingest's (as before)."""
        return _own_or_ingest(self, self.dlq_observer_metrics_port, self.dlq_observer_metrics_host)


def _own_or_ingest(settings: Settings, port: int | None, host: str | None) -> tuple[int, str]:
    return (settings.ingest_metrics_port if port is None else port,
            settings.ingest_metrics_host if host is None else host)


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
