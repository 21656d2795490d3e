"""Settings groups: IngestSettings, DeliverSettings, SweepSettings."""

from __future__ import annotations

from pydantic import Field

from hub.settings.base import CommaFloats, HubSettingsGroup


class IngestSettings(HubSettingsGroup):
    """The ingestion workers (`hub ingest`) and the dead-letter observer."""

    ingest_batch_max_records: int = 2000
    """Most records an ingest batch (one transaction) holds."""

    ingest_batch_max_ms: int = 20
    """How long a batch keeps collecting after its first record."""

    ingest_batch_idle_ms: int = 2
    """Inside that window, a batch is written as soon as no record came for this long and no other batch
    is being written (low rates then wait milliseconds, not the whole window); 0 always waits it out."""

    ingest_prefetch_kbytes: int = 65536
    """Most record data an ingest process holds fetched ahead of its batches (N98): a flood on one partition
    puts up to this much ahead of another tenant's records. Smaller cuts that wait but slows a backlog's
    ingest (1024 halved a flood's drain in bench/noisy.py); the default is librdkafka's."""

    ingest_partition_fetch_kbytes: int = 1024
    """Most record data one fetch brings from one partition (N98; librdkafka's default)."""

    ingest_read_ahead_records: int = 20000
    """Most records an ingest process holds fetched and not yet batched, by partition (N98): batches take
    the partitions in turns, so a flood on one never queues another's records behind it. Past this, the
    fullest partitions pause until their queue is down to a batch (0: batches in the order fetched)."""

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

    dlq_observer_metrics_port: int | None = None
    """Port of `hub dlq-observer`'s `/metrics` listener (0: none; unset: `HUB_INGEST_METRICS_PORT`, as before)."""

    dlq_observer_metrics_host: str | None = None
    """Address of that listener (unset: `HUB_INGEST_METRICS_HOST`)."""

    dlq_produce_timeout_seconds: float = 30.0
    """How long a batch waits for the broker to acknowledge its dead-letter records."""


class DeliverSettings(HubSettingsGroup):
    """The delivery workers (`hub deliver`) and the webhook sink."""

    deliver_batch_size: int = 500
    """Most jobs one claim takes (one bookkeeping transaction per claimed batch)."""

    deliver_bulk_batch_size: int = 100
    """Most of a recovery's jobs one claim takes, after the live ones (N58), so live jobs keep the workers."""

    deliver_bulk_rate_per_second: float = 400.0
    """Most of a recovery's jobs one `hub deliver` process claims per second (N62; 0: no limit): the recovery's pace, traded for live latency."""

    deliver_tenant_weights: str = ""
    """Tenants' shares of delivery capacity (N98), as `tenant=weight` pairs separated by commas, e.g.
    `acme=3,globex=2`; a tenant not named weighs 1."""

    deliver_lane_batch_max: int = 128
    """Most jobs of one lane a claim takes (N98): a backlog comes in batches its destination sends in
    tens of milliseconds, so claims (and another lane's turn) come that often."""

    deliver_hanging_after_seconds: float = 1.0
    """A destination with requests out and none ended for this long hangs (N98): its lanes claim only its
    free slots, and its sends never hold a batch's record."""

    deliver_metrics_top_tenants: int = 10
    """How many tenants (those with the most due jobs) get per-tenant backlog and share gauges (N98)."""

    deliver_claim_lanes: int = 256
    """Most lanes (a tenant's subscription with open work) one claim visits (N98); past it, claims take turns."""

    deliver_pipelines: int = 3
    """Claim-deliver-record loops per `hub deliver` process, each with its own database connection."""

    deliver_express_busy: int = 8
    """An express claim loop (N98) besides the pipelines: it claims only the lanes whose destination has fewer
    than this many of the process's requests out, at most this many jobs of each, so a quiet tenant's job is
    not claimed behind a flood's batches (0: no express loop)."""

    deliver_concurrency: int = 512
    """Most requests in flight at once in one `hub deliver` process."""

    deliver_per_host_concurrency: int = 32
    """Most requests in flight at once to one destination host and port, per process."""

    deliver_host_wait_seconds: float = 5.0
    """How long a job waits for a busy destination's slot (at most half the lease) before it goes back, untried, for later."""

    deliver_record_wait_seconds: float = 0.5
    """How long a batch's record waits for its slowest sends; those still out then are recorded apart, every record wait, with the process's other batches' sends that ended, so one slow destination never sets the pace of a whole batch (0: always wait for all)."""

    deliver_lease_seconds: float = 60.0
    """How long a claim holds its jobs; a killed worker's jobs are due again after it. A try begins within the first half of it (N108)."""

    deliver_idle_poll_seconds: float = 0.05
    """Pause of a claim loop that found no due job; ingest's wake-up ends it early (the poll bounds the pickup of retries)."""

    deliver_claim_interval_ms: int = 20
    """Least time between two claims of one `hub deliver` process while its last claim was short of a full batch (0: at once); idle polls stay `HUB_DELIVER_IDLE_POLL_SECONDS` apart."""

    deliver_wakeup: bool = True
    """Whether `hub deliver` LISTENs for ingest's notification of newly committed jobs and claims them at once."""

    deliver_hold_recheck_seconds: float = 300.0
    """When a held job (subscription not yet active) is looked at again; activation releases it at once."""

    deliver_retry_ladder_seconds: CommaFloats = Field(
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


class SweepSettings(HubSettingsGroup):
    """Retention and the sweeps of `hub sweep --loop`."""

    retention_days: int = 30
    """How long the event log, delivery jobs and delivery attempts are kept."""

    retention_batch_rows: int = 5000
    """Rows one retention delete removes (each batch is its own short transaction)."""

    retention_interval_seconds: float = 300.0
    """Pause between sweeps of `hub sweep --loop` (and of the sweep `hub dev` runs)."""

    broker_sweep_interval_seconds: float = 60.0
    """Pause between the broker history trims of `hub sweep --loop` (configs' max_events and ttl_seconds)."""
