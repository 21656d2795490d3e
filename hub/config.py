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
        env_prefix="HUB_", env_file=LOCAL_ENV_FILE, env_file_encoding="utf-8", extra="ignore"
    )

    # Storage
    database_url: str = "postgresql+psycopg://hub:hub@127.0.0.1:55432/hub"
    database_pool_size: int = 10

    # Kafka
    kafka_bootstrap: str = "127.0.0.1:59092"
    kafka_topic_prefix: str = "lerian.streaming."
    kafka_consumer_group: str = "streaming-hub-ingest"
    kafka_dlq_group: str = "streaming-hub-dlq-observer"
    kafka_topic_partitions: int = 6
    kafka_max_record_bytes: int = 1_048_576
    kafka_session_timeout_ms: int = 10_000
    # Where tests find the broker jars for a throwaway broker ("" = <repo>/.local/kafka/libs)
    kafka_libs_dir: str = ""

    # Ingestion workers (`hub ingest`) and the dead-letter observer
    ingest_batch_max_records: int = 2000
    ingest_batch_max_ms: int = 20
    ingest_retry_max_seconds: float = 15.0
    ingest_heartbeat_seconds: float = 5.0
    ingest_metrics_port: int = 0  # 0 = no /metrics listener in the worker
    ingest_metrics_host: str = "127.0.0.1"
    dlq_produce_timeout_seconds: float = 30.0

    # API
    api_host: str = "127.0.0.1"
    api_port: int = 8080
    problem_type_base: str = "urn:streaming-hub:problem:"

    # Authentication (decisions.md D15)
    jwt_hs256_secret: SecretStr = SecretStr("dev-only-insecure-hs256-secret-change-me")
    jwt_public_key_pem: str = ""
    jwt_jwks_url: str = ""
    jwt_jwks_cache_seconds: int = 300
    jwt_algorithms: CommaList = Field(default_factory=lambda: ["HS256", "RS256", "ES256"])
    jwt_issuer: str = "streaming-hub-dev"
    jwt_audience: str = "streaming-hub"
    jwt_leeway_seconds: int = 5
    claim_tenant: str = "tenant_id"
    claim_permissions: str = "permissions"
    claim_scope: str = "scope"
    claim_delegated_scope: str = "delegated_scope"
    claim_nature: str = "nature"
    operator_scope: str = "hub:operator"
    decision_service_url: str = ""
    decision_service_timeout_seconds: float = 2.0

    # Secrets at rest: "key_id:base64(32 bytes)" entries, newest first
    encryption_keys: CommaList = Field(
        default_factory=lambda: ["dev1:ZGV2LW9ubHktaW5zZWN1cmUtZW5jcnlwdGlvbi1rZXk="]
    )

    # Outbound destinations
    egress_allow_cidrs: CommaList = Field(default_factory=list)
    dns_timeout_seconds: float = 2.0
    # "host[:port]" DNS servers for destination checks; empty = the system's resolv.conf
    dns_nameservers: Annotated[list[str], NoDecode, BeforeValidator(_split_csv)] = Field(default_factory=list)

    # Sinks
    rabbitmq_url: str = "amqp://hub:hub@127.0.0.1:55672/%2F"
    aws_endpoint_url: str = ""
    aws_region: str = "us-east-1"

    # Rate limits: requests per window, per tenant
    rate_limit_window_seconds: int = 60
    rate_limit_reads: int = 600
    rate_limit_events: int = 1200
    rate_limit_dashboard: int = 120

    # Idempotency
    idempotency_ttl_hours: int = 24

    # Catalog feed. ``catalog_manifest_urls`` is a comma list of producer manifest URLs. In a
    # single-tenant deployment each entry is a plain URL and the producer's target is its host
    # (plus the port when not the scheme's default). With ``catalog_multi_tenant`` each entry is
    # ``label=url`` (e.g. ``ledger=http://ledger.internal:8080/manifest.json``) and the target is
    # the service label. A configured target that is later removed is retired: its producers[]
    # row disappears, its events stay served as stale until another producer claims its source.
    catalog_manifest_urls: CommaList = Field(default_factory=list)
    catalog_multi_tenant: bool = False
    catalog_refresh_seconds: float = 30.0
    catalog_fetch_timeout_seconds: float = 5.0
    catalog_breaker_threshold: int = 3
    catalog_breaker_cooldown_seconds: float = 60.0
    # The API process runs the refresher thread when this is on and manifest URLs are set.
    catalog_refresher_enabled: bool = True
    catalog_max_manifest_bytes: int = 1_048_576

    # Logging and build identity (set by the image build; git is asked otherwise)
    log_level: str = "INFO"
    build_commit: str = ""
    build_date: str = ""

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
