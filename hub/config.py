"""One settings object for the whole hub (env prefix ``HUB_``, also read from ``.local/env``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import BeforeValidator, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from typing_extensions import Annotated

REPO_ROOT = Path(__file__).resolve().parent.parent
LOCAL_ENV_FILE = REPO_ROOT / ".local" / "env"

CommaList = Annotated[list[str], NoDecode]


def _split_csv(value: object) -> object:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


class Settings(BaseSettings):
    """Every tunable of the hub. See the README's configuration table."""

    model_config = SettingsConfigDict(
        env_prefix="HUB_", env_file=LOCAL_ENV_FILE, env_file_encoding="utf-8", extra="ignore",
        use_attribute_docstrings=True,
    )

    # Storage
    database_url: str = "postgresql+psycopg://hub:hub@127.0.0.1:55432/hub"
    """PostgreSQL URL (SQLAlchemy form) of the hub's database."""
    database_pool_size: int = 10
    """Connections in the API pod's pool."""

    # Kafka
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
    kafka_libs_dir: str = ""
    """Where tests find the broker jars for a throwaway broker (empty: `.local/kafka/libs`)."""

    # Ingestion workers (`hub ingest`) and the dead-letter observer
    ingest_batch_max_records: int = 2000
    """Most records an ingest batch (one transaction) holds."""
    ingest_batch_max_ms: int = 20
    """How long a batch keeps collecting after its first record."""
    ingest_batch_idle_ms: int = 2
    """Inside that window, a batch is written as soon as no record came for this long and no other batch
    is being written (low rates then wait milliseconds, not the whole window); 0 always waits it out."""
    ingest_nice: int = 10
    """How far ingest lowers its CPU priority (os.nice) so delivery gets the cores past capacity; 0 keeps it."""
    ingest_retry_max_seconds: float = 15.0
    """Longest backoff between retries of a batch while a dependency is down."""
    ingest_heartbeat_seconds: float = 5.0
    """How often each worker writes its heartbeat row (read by `/readyz`)."""
    ingest_metrics_port: int = 0
    """Port of a worker's own `/metrics` listener (0: none)."""
    ingest_metrics_host: str = "127.0.0.1"
    """Address of that listener."""
    dlq_produce_timeout_seconds: float = 30.0
    """How long a batch waits for the broker to acknowledge its dead-letter records."""

    # API
    api_host: str = "127.0.0.1"
    """Address the API listens on."""
    api_port: int = 8080
    """Port the API listens on."""
    api_workers: int = 1
    """Worker processes `hub api` (and so `make dev`) serves with on its port, each using up to one core (2 on a 2-core dev machine: N61)."""
    problem_type_base: str = "urn:streaming-hub:problem:"
    """Prefix of the `type` URI of every problem+json error."""

    # gRPC server and the publisher service of seed 000 (docs/contract-notes.md N33)
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

    # The consumer service of seed 000 (docs/contract-notes.md N36-N44)
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
    consumer_relay_poll_seconds: float = 1.0
    """Longest the relay waits for ingest's notification before it looks at the event logs anyway."""

    # Authentication (docs/contract-notes.md N15)
    jwt_hs256_secret: SecretStr = SecretStr("dev-only-insecure-hs256-secret-change-me")
    """Shared secret for HS256 tokens (`hub token` mints them)."""
    jwt_public_key_pem: str = ""
    """PEM public key for RS256/ES256 tokens."""
    jwt_jwks_url: str = ""
    """JWKS URL for RS256/ES256 tokens."""
    jwt_jwks_cache_seconds: int = 300
    """How long a fetched JWKS is reused."""
    jwt_algorithms: CommaList = Field(default_factory=lambda: ["HS256", "RS256", "ES256"])
    """Accepted token algorithms (`none` never is)."""
    jwt_issuer: str = "streaming-hub-dev"
    """Required `iss` claim."""
    jwt_audience: str = "streaming-hub"
    """Required `aud` claim."""
    jwt_leeway_seconds: int = 5
    """Clock skew allowed on `exp` and `nbf`."""
    jwt_verified_cache_seconds: int = 60
    """How long a process reuses a token's verified claims before it checks the same token again (never past its `exp`; 0: every request)."""
    claim_tenant: str = "tenant_id"
    """Claim that carries the tenant id."""
    claim_permissions: str = "permissions"
    """Claim that carries the `resource:action` permissions."""
    claim_scope: str = "scope"
    """Claim that carries the OAuth scope (operator scope)."""
    claim_delegated_scope: str = "delegated_scope"
    """Claim that carries the delegated scope."""
    claim_nature: str = "nature"
    """Claim that tells a user token from a service token."""
    operator_scope: str = "hub:operator"
    """Scope value that grants the operator routes (`/admin/...`)."""
    decision_service_url: str = ""
    """Optional authorization decision service; empty: permissions from the token."""
    decision_service_timeout_seconds: float = 2.0
    """Timeout of a decision service call."""

    # Secrets at rest: "key_id:base64(32 bytes)" entries, newest first
    encryption_keys: CommaList = Field(
        default_factory=lambda: ["dev1:ZGV2LW9ubHktaW5zZWN1cmUtZW5jcnlwdGlvbi1rZXk="]
    )
    """Sealing keys for secrets at rest, `key_id:base64(32 bytes)`, newest first."""

    # Outbound destinations
    egress_allow_cidrs: CommaList = Field(default_factory=list)
    """Private ranges destinations may resolve to (all are refused by default)."""
    dns_timeout_seconds: float = 2.0
    """Timeout of a destination's DNS lookup."""
    dns_nameservers: Annotated[list[str], NoDecode, BeforeValidator(_split_csv)] = Field(default_factory=list)
    """`host[:port]` DNS servers for destination checks; empty: the system's."""

    # Sinks
    rabbitmq_url: str = "amqp://hub:hub@127.0.0.1:55672/%2F"
    """AMQP URL of the RabbitMQ the tests and local stack use."""
    aws_endpoint_url: str = ""
    """AWS endpoint override (moto locally); empty: AWS itself."""
    aws_region: str = "us-east-1"
    """AWS region for SQS, EventBridge and STS when a subscription names none."""
    aws_hub_principal_arn: str = ""
    """The hub's own AWS principal ARN that delivery roles trust (empty: setup artifacts answer 500)."""
    aws_setup_template_url: str = ""
    """Public URL of `deploy/aws/delivery-role.yaml` for the CloudFormation quick-create link (empty: 500)."""
    aws_assume_role_seconds: int = 3600
    """Lifetime asked of STS for a delegated grant's session credentials."""
    aws_credential_refresh_seconds: int = 300
    """Assumed-role credentials are renewed this long before they expire."""
    sink_io_threads: int = 16
    """Threads per AWS sink for the blocking AWS SDK calls."""
    sqs_max_message_bytes: int = 1_048_576
    """Largest SQS message (body plus attributes); a larger one is dead-lettered unsent."""
    eventbridge_max_entry_bytes: int = 262_144
    """Largest EventBridge entry by AWS's size formula; a larger one is dead-lettered unsent."""
    rabbitmq_max_message_bytes: int = 16_777_216
    """Largest RabbitMQ message body the hub publishes; a larger one is dead-lettered unsent."""
    rabbitmq_connect_timeout_seconds: float = 5.0
    """Timeout of a RabbitMQ connect, login and channel open."""

    # Delivery workers (`hub deliver`) and the webhook sink
    deliver_batch_size: int = 500
    """Most jobs one claim takes (one bookkeeping transaction per claimed batch)."""
    deliver_bulk_batch_size: int = 100
    """Most of a recovery's jobs one claim takes, after the live ones (N58), so live jobs keep the workers."""
    deliver_bulk_rate_per_second: float = 400.0
    """Most of a recovery's jobs one `hub deliver` process claims per second (N62; 0: no limit): the recovery's pace, traded for live latency."""
    deliver_pipelines: int = 3
    """Claim-deliver-record loops per `hub deliver` process, each with its own database connection."""
    deliver_concurrency: int = 512
    """Most requests in flight at once in one `hub deliver` process."""
    deliver_per_host_concurrency: int = 32
    """Most requests in flight at once to one destination host and port, per process."""
    deliver_host_wait_seconds: float = 5.0
    """How long a job waits for a busy destination's slot before it goes back, untried, for later."""
    deliver_lease_seconds: float = 60.0
    """How long a claim holds its jobs; a killed worker's jobs are due again after it."""
    deliver_idle_poll_seconds: float = 0.05
    """Pause of a claim loop that found no due job; ingest's wake-up ends it early (the poll bounds the pickup of retries)."""
    deliver_claim_interval_ms: int = 50
    """Least time between two claims of one `hub deliver` process while its last claim was short of a full batch (0: at once)."""
    deliver_wakeup: bool = True
    """Whether `hub deliver` LISTENs for ingest's notification of newly committed jobs and claims them at once."""
    deliver_hold_recheck_seconds: float = 300.0
    """When a held job (subscription not yet active) is looked at again; activation releases it at once."""
    deliver_retry_ladder_seconds: Annotated[list[float], NoDecode, BeforeValidator(_split_csv)] = Field(
        default_factory=lambda: [5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0])
    """Waits before each retry, comma-separated seconds; its sum is the retry horizon of held jobs."""
    deliver_retry_jitter: float = 0.2
    """Relative jitter (±) applied to each retry wait."""
    deliver_auto_disable_seconds: float = 475_200.0
    """Failure with no success for this long disables a subscription (5 d 12 h)."""
    deliver_metrics_port: int = 0
    """Port of a `hub deliver` process's `/metrics` listener (0: none; process i of N uses port + i)."""
    deliver_metrics_host: str = "127.0.0.1"
    """Address of that listener."""
    webhook_ca_bundle: str = ""
    """PEM file of extra CAs the webhook sink trusts (private CAs), besides the system's."""
    webhook_max_response_bytes: int = 65_536
    """Most bytes of a webhook's response body that are read; the rest is discarded with the connection."""
    webhook_keepalive_seconds: float = 4.0
    """How long an idle pooled webhook connection is kept; below common receivers' idle close (5 s)."""

    # Rate limits: requests per window, per tenant
    rate_limit_window_seconds: int = 60
    """Length of a rate-limit window."""
    rate_limit_reads: int = 600
    """Read requests per tenant per window."""
    rate_limit_events: int = 1200
    """Event requests per tenant per window."""
    rate_limit_dashboard: int = 120
    """Dashboard requests per tenant per window."""

    # Pull inbox
    pull_scan_rows: int = 5000
    """Most event-log rows one `GET /v1/events` examines (a sparse subscription catches up over reads)."""

    # Delivery health, the dashboard and retention
    health_window_days: int = 30
    """Width of the delivery-health window (`GET /v1/subscriptions/{id}/health`)."""
    read_timeout_ms: int = 5000
    """Time budget of one health or dashboard read (a statement timeout); past it: 503 `read_timeout`."""
    dashboard_pull_ceiling_hours: int = 48
    """Widest dashboard period for which pull eligibility is computed."""
    dashboard_cursor_key: SecretStr = SecretStr("")
    """HMAC key of the needs-attention cursor; empty: derived from `HUB_JWT_HS256_SECRET`."""
    retention_days: int = 30
    """How long the event log, delivery jobs and delivery attempts are kept."""
    retention_batch_rows: int = 5000
    """Rows one retention delete removes (each batch is its own short transaction)."""
    retention_interval_seconds: float = 300.0
    """Pause between sweeps of `hub sweep --loop` (and of the sweep `hub dev` runs)."""

    # The delivery log, resend and recover (docs/contract-notes.md N45-N52)
    recovery_batch_jobs: int = 500
    """Jobs one recovery batch re-enqueues (each batch is its own short transaction)."""
    recovery_pause_seconds: float = 0.2
    """Pause between two batches of a recovery, so live deliveries keep the workers."""

    # Event broker (seed 003)
    broker_publish_timeout_seconds: float = 10.0
    """How long a broker publish waits for the backbone's acknowledgement."""
    broker_store_wait_seconds: float = 10.0
    """How long a broker publish waits for ingest to store the event (read-your-writes); past it: 503."""
    broker_sweep_interval_seconds: float = 60.0
    """Pause between the broker history trims of `hub sweep --loop` (configs' max_events and ttl_seconds)."""
    broker_ws_buffer_events: int = 1000
    """Frames a live subscriber may have waiting; one more and it is closed (code 4008)."""
    broker_ws_close_wait_seconds: float = 30.0
    """How long the close (4008) of a subscriber that fell behind waits for its socket to take it."""

    # Idempotency
    idempotency_ttl_hours: int = 24
    """How long an idempotency key's answer is replayed."""

    # Catalog feed. ``catalog_manifest_urls`` is a comma list of producer manifest URLs. In a
    # single-tenant deployment each entry is a plain URL and the producer's target is its host
    # (plus the port when not the scheme's default). With ``catalog_multi_tenant`` each entry is
    # ``label=url`` (e.g. ``ledger=http://ledger.internal:8080/manifest.json``) and the target is
    # the service label. A configured target that is later removed is retired: its producers[]
    # row disappears, its events stay served as stale until another producer claims its source.
    catalog_manifest_urls: CommaList = Field(default_factory=list)
    """Producer manifest URLs (multi-tenant: `label=url`)."""
    catalog_multi_tenant: bool = False
    """Targets are service labels instead of host[:port]."""
    catalog_refresh_seconds: float = 30.0
    """Interval between catalog refreshes."""
    catalog_fetch_timeout_seconds: float = 5.0
    """Timeout of one manifest fetch."""
    catalog_breaker_threshold: int = 3
    """Consecutive failures that open a producer's circuit breaker."""
    catalog_breaker_cooldown_seconds: float = 60.0
    """How long an open breaker waits before one trial fetch."""
    catalog_refresher_enabled: bool = True
    """Whether the API process runs the refresher."""
    catalog_max_manifest_bytes: int = 1_048_576
    """Largest manifest accepted."""

    # Logging and build identity (set by the image build; git is asked otherwise)
    log_level: str = "INFO"
    """Log level of the JSON logs."""
    build_commit: str = ""
    """Commit reported by `/version` (git is asked when empty)."""
    build_date: str = ""
    """Build date reported by `/version`."""

    # Traces (N59, N71)
    otlp_endpoint: str = ""
    """Alias of the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (a collector's base URL), which wins when both are set; tracing is on when either is (README "Traces", N71)."""

    @field_validator(
        "jwt_algorithms", "encryption_keys", "egress_allow_cidrs", "catalog_manifest_urls",
        mode="before",
    )
    @classmethod
    def _csv(cls, value: object) -> object:
        return _split_csv(value)

    @property
    def dlq_topic(self) -> str:
        return f"{self.kafka_topic_prefix}dlq"


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
