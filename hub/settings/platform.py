"""Settings groups: StorageSettings, KafkaSettings, ApiSettings, ProcessSettings."""

from __future__ import annotations

from hub.settings.base import HubSettingsGroup


class StorageSettings(HubSettingsGroup):
    """The hub's PostgreSQL database."""

    database_url: str = "postgresql+psycopg://hub:hub@127.0.0.1:55432/hub"
    """PostgreSQL URL (SQLAlchemy form) of the hub's database."""

    database_pool_size: int = 10
    """Connections in the API pod's pool."""


class KafkaSettings(HubSettingsGroup):
    """The Kafka backbone: where it is, the topics' names, how the consumers fetch."""

    kafka_bootstrap: str = "127.0.0.1:59092"
    """Kafka bootstrap servers, comma-separated host:port."""

    kafka_topic_prefix: str = "lerian.streaming."
    """Prefix of the producers' topics (`<prefix><source>`) and of the DLQ topic (`<prefix>dlq`)."""

    kafka_consumer_group: str = "streaming-hub-ingest"
    """Consumer group shared by every `hub ingest` process."""

    kafka_dlq_group: str = "streaming-hub-dlq-observer"
    """Consumer group of `hub dlq-observer`."""

    kafka_topic_partitions: int = 6
    """Partitions of the topics the hub creates itself (DLQ, lifecycle)."""

    kafka_max_record_bytes: int = 1_048_576
    """A record larger than this (headers, key and value) is poison."""

    kafka_session_timeout_ms: int = 10_000
    """Consumer session timeout; a silent worker loses its partitions after it."""

    kafka_fetch_min_bytes: int = 1
    """Bytes the broker gathers before it answers a fetch (more: fewer, larger fetches)."""

    kafka_fetch_wait_max_ms: int = 500
    """Longest the broker holds a fetch while it gathers `kafka_fetch_min_bytes`."""

    kafka_producer_linger_ms: float = 1.0
    """How long a producer gathers records into one request (`linger.ms`); a single publish's answer waits it."""

    kafka_libs_dir: str = ""
    """Where tests find the broker jars for a throwaway broker (empty: `.local/kafka/libs`)."""

    @property
    def dlq_topic(self) -> str:
        return f"{self.kafka_topic_prefix}dlq"


class ApiSettings(HubSettingsGroup):
    """The HTTP API: where it listens, its problem types, the per-tenant rate limits and idempotency."""

    api_host: str = "127.0.0.1"
    """Address the API listens on."""

    api_port: int = 8080
    """Port the API listens on."""

    api_workers: int = 1
    """Worker processes `hub api` (and so `make dev`) serves with on its port, each using up to one core (2 on a 2-core dev machine: N61)."""

    problem_type_base: str = "urn:streaming-hub:problem:"
    """Prefix of the `type` URI of every problem+json error."""

    rate_limit_window_seconds: int = 60
    """Length of a rate-limit window."""

    rate_limit_reads: int = 600
    """Read requests per tenant per window."""

    rate_limit_events: int = 1200
    """Event requests per tenant per window."""

    rate_limit_dashboard: int = 120
    """Dashboard requests per tenant per window."""

    idempotency_ttl_hours: int = 24
    """How long an idempotency key's answer is replayed."""


class ProcessSettings(HubSettingsGroup):
    """What every process shares: logging, build identity and traces."""

    log_level: str = "INFO"
    """Log level of the JSON logs."""

    worker_liveness_seconds: float = 60.0
    """A worker's `/livez` answers 503 once its loop has not beaten its heartbeat for this long (N94)."""

    startup_wait_seconds: float = 0.0
    """How long a starting process waits for PostgreSQL and Kafka to answer before it exits (0: exit at once, naming them); deployments set 60 (N86)."""

    build_commit: str = ""
    """Commit reported by `/version` (git is asked when empty)."""

    build_date: str = ""
    """Build date reported by `/version`."""

    otlp_endpoint: str = ""
    """Alias of the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (a collector's base URL), which wins when both are set; tracing is on when either is (README "Traces", N71)."""
