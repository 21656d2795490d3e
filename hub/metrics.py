"""Prometheus metrics of the API and the workers. No tenant or subscription id is ever a label."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from hub import __version__

BUILD_INFO = Gauge("streaming_hub_build_info", "Build identity of this process", ["version", "commit"])

API_LATENCY = Histogram(
    "streaming_hub_api_request_seconds", "API request latency", ["route", "method", "status"]
)
EVENTS_INGESTED = Counter("streaming_hub_events_ingested_total", "Events appended to the tenant event log")
DEDUP_HITS = Counter("streaming_hub_ingest_dedup_hits_total", "Records already in the event log")
POISON_RECORDS = Counter("streaming_hub_poison_records_total", "Records quarantined to the DLQ", ["error_class"])
INGEST_BATCH_SIZE = Histogram(
    "streaming_hub_ingest_batch_size", "Records per ingest batch", buckets=(1, 10, 50, 100, 250, 500, 1000, 2000)
)
INGEST_BATCH_SECONDS = Histogram("streaming_hub_ingest_batch_seconds", "Ingest batch latency")
JOBS_CREATED = Counter("streaming_hub_delivery_jobs_created_total", "Delivery jobs created")
ATTEMPTS = Counter("streaming_hub_delivery_attempts_total", "Delivery attempts", ["sink_kind", "outcome"])
DELIVERY_LATENCY = Histogram("streaming_hub_delivery_seconds", "Delivery attempt latency", ["sink_kind"])
CONSUMER_LAG = Gauge("streaming_hub_consumer_lag", "Consumer lag in records", ["topic", "partition"])
JOB_BACKLOG = Gauge("streaming_hub_delivery_backlog", "Delivery jobs pending or retrying")
OLDEST_DUE_JOB_AGE = Gauge("streaming_hub_delivery_oldest_due_seconds", "Age of the oldest due delivery job")
# Per tenant, for the top ``HUB_DELIVER_METRICS_TOP_TENANTS`` by due jobs only (bounded cardinality, N98).
TENANT_DUE_JOBS = Gauge("streaming_hub_tenant_due_jobs", "Due delivery jobs of a tenant (the top tenants by due jobs)",
                        ["tenant"])
TENANT_OLDEST_DUE = Gauge("streaming_hub_tenant_oldest_due_seconds",
                          "Age of a tenant's oldest due delivery job (the top tenants by due jobs)", ["tenant"])
TENANT_DELIVERY_SHARE = Gauge("streaming_hub_tenant_delivery_share",
                              "Share of the jobs this deliver process claimed that went to a tenant, over the last "
                              "report interval (the top tenants by due jobs)", ["tenant"])
IN_FLIGHT = Gauge("streaming_hub_delivery_in_flight", "Delivery requests in flight in this process")
ORDERED_BLOCKED_KEYS = Gauge("streaming_hub_ordered_blocked_keys",
                             "Ordered keys parked by a dead-lettered head until an operator resumes them (N77)")
ORDERED_OLDEST_WAIT = Gauge("streaming_hub_ordered_oldest_wait_seconds",
                            "Age of the oldest job waiting for its ordered key's turn (N77)")


def set_build_info(commit: str) -> None:
    BUILD_INFO.labels(version=__version__, commit=commit).set(1)

RETENTION_ROWS_DELETED = Counter(
    "streaming_hub_retention_rows_deleted_total", "Rows the retention sweep deleted", ["table"]
)
RETENTION_SWEEPS = Counter(
    "streaming_hub_retention_sweeps_total", "Retention sweeps by result (done, locked elsewhere)", ["result"]
)
RETENTION_COVERAGE_START = Gauge(
    "streaming_hub_retention_coverage_start_seconds", "Unix time from which retained history is complete"
)
RETENTION_SWEEP_SECONDS = Gauge("streaming_hub_retention_last_sweep_seconds", "Duration of the last sweep")

# What deploy/observability's alerts and dashboard read besides the above (N72).
READY = Gauge("streaming_hub_ready", "1 while a check of /readyz is healthy or degraded, 0 while it is down",
              ["check"])
AUTO_DISABLED = Counter("streaming_hub_subscriptions_auto_disabled_total",
                        "Subscriptions disabled after failing for the whole failure window", ["sink_kind"])
RELAY_LAG = Gauge("streaming_hub_consumer_relay_lag_events",
                  "Stored events of tenants with consumer queues not yet relayed to their exchange")
QUEUED_MESSAGES = Gauge("streaming_hub_consumer_queued_messages", "Messages ready in all consumer queues")
DEEPEST_QUEUE = Gauge("streaming_hub_consumer_queue_deepest_messages", "Messages ready in the deepest consumer queue")
