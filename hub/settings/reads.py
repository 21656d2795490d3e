"""Settings groups: ReadSettings, CatalogSettings."""

from __future__ import annotations

from pydantic import Field, SecretStr

from hub.settings.base import CommaList, HubSettingsGroup


class ReadSettings(HubSettingsGroup):
    """The read paths: the pull inbox, delivery health, the dashboard, the delivery log's recoveries."""

    pull_scan_rows: int = 5000
    """Most event-log rows one `GET /v1/events` examines (a sparse subscription catches up over reads)."""

    health_window_days: int = 30
    """Width of the delivery-health window (`GET /v1/subscriptions/{id}/health`)."""

    read_timeout_ms: int = 5000
    """Time budget of one health or dashboard read (a statement timeout); past it: 503 `read_timeout`."""

    dashboard_pull_ceiling_hours: int = 48
    """Widest dashboard period for which pull eligibility is computed."""

    dashboard_cursor_key: SecretStr = SecretStr("")
    """HMAC key of the needs-attention cursor; empty: derived from `HUB_JWT_HS256_SECRET`."""

    recovery_batch_jobs: int = 500
    """Jobs one recovery batch re-enqueues (each batch is its own short transaction)."""

    recovery_pause_seconds: float = 0.2
    """Pause between two batches of a recovery, so live deliveries keep the workers."""


class CatalogSettings(HubSettingsGroup):
    """The catalog feed: producer manifests and how they are fetched.

    In a single-tenant deployment each manifest URL is a plain URL and the producer's target is its host
    (plus the port when not the scheme's default). With ``catalog_multi_tenant`` each entry is
    ``label=url`` (e.g. ``ledger=http://ledger.internal:8080/manifest.json``) and the target is the
    service label. A configured target later removed is retired: its producers[] row disappears, its
    events stay served as stale until another producer claims its source.
    """

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
