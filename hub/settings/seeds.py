"""Settings groups: PublisherSettings, ConsumerSettings, BrokerSettings."""

from __future__ import annotations

from hub.settings.base import HubSettingsGroup


class PublisherSettings(HubSettingsGroup):
    """The gRPC server and the publisher service of seed 000 (docs/contract-notes.md N33)."""

    grpc_host: str = "127.0.0.1"
    """Address the gRPC server (`hub grpc`) listens on."""

    grpc_port: int = 50051
    """Port the gRPC server listens on."""

    publisher_ack_timeout_seconds: float = 5.0
    """How long a publish waits for the backbone's acknowledgements before answering `success: false`."""

    publisher_max_inflight_events: int = 20_000
    """Events a process may have waiting for acknowledgements; past it a publish answers 503 / RESOURCE_EXHAUSTED."""

    publisher_batch_max_events: int = 1000
    """Most events one batch publish may carry."""

    publisher_retry_after_seconds: int = 1
    """The `Retry-After` of an overloaded publish."""


class ConsumerSettings(HubSettingsGroup):
    """The consumer service of seed 000 and its relay (docs/contract-notes.md N36-N44)."""

    consumer_delivery_limit: int = 10
    """Deliveries a durable-queue message may have in its lifetime; past them it is dead-lettered."""

    consumer_message_ttl_seconds: int = 0
    """Message TTL of a durable queue, after which a message is dead-lettered (0: none)."""

    consumer_max_length: int = 1_000_000
    """Most messages a durable queue holds; the oldest is dead-lettered past it (0: unbounded)."""

    consumer_durable_idle_seconds: float = 86_400.0
    """A durable queue with no consumer attached for this long is deleted with its messages."""

    consumer_reconnect_grace_seconds: float = 20.0
    """How long a non-durable queue outlives its last consumer (its reconnect token stays good)."""

    consumer_sweep_seconds: float = 60.0
    """Interval of the idle sweep of durable queues."""

    consumer_prefetch: int = 500
    """Unacknowledged messages one consume stream may hold."""

    consumer_autoack_delay_seconds: float = 1.0
    """Delay after which the auto-acknowledging durable streams acknowledge a message they sent."""

    consumer_relay_batch: int = 1000
    """Most events the relay reads from one tenant's event log per round trip."""

    consumer_relay_metrics_port: int | None = None
    """Port of `hub consumer-relay`'s `/metrics` listener (0: none; unset: `HUB_INGEST_METRICS_PORT`, as before)."""

    consumer_relay_metrics_host: str | None = None
    """Address of that listener (unset: `HUB_INGEST_METRICS_HOST`)."""

    consumer_relay_poll_seconds: float = 1.0
    """Longest the relay waits for ingest's notification before it looks at the event logs anyway."""


class BrokerSettings(HubSettingsGroup):
    """The event broker of seed 003."""

    broker_publish_timeout_seconds: float = 10.0
    """How long a broker publish waits for the backbone's acknowledgement."""

    broker_store_wait_seconds: float = 10.0
    """How long a broker publish waits for ingest to store the event (read-your-writes); past it: 503."""

    broker_ws_buffer_events: int = 1000
    """Frames a live subscriber may have waiting; one more and it is closed (code 4008)."""

    broker_ws_close_wait_seconds: float = 30.0
    """How long the close (4008) of a subscriber that fell behind waits for its socket to take it."""
