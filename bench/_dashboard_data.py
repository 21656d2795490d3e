"""The dashboard bench's data: one tenant with a million events, their jobs and attempts, written by SQL.

Not a bench of its own (``make bench`` skips ``bench/_*.py``).
"""

from __future__ import annotations

import time

import psycopg

from hub.dashboard import queries

TENANT = "bench-tenant"
TABLES = ("subscriptions", "subscription_health", "event_log", "delivery_jobs", "delivery_attempts",
          "pull_eligibility_hourly", "event_counts_hourly", "job_counts_hourly", "attempt_counts_hourly")
PAYLOAD = '{"p":"' + "x" * 290 + '"}'

LOAD_SQL = [
    """INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, event_types, signature_version,
         plan_tier, enabled, verification_state, credential_kind, auto_disabled, disabled_reason, created_at,
         updated_at)
       SELECT gen_random_uuid(), %(t)s::text, 'bench-' || g,
              CASE WHEN g <= 80 THEN 'webhook' WHEN g <= 95 THEN 'pull' ELSE 'sqs' END,
              'https://hooks.example/' || g,
              CASE WHEN g %% 3 = 0 THEN NULL ELSE '["transaction.posted"]'::jsonb END, 'v1', 'standard',
              g %% 17 <> 0, CASE WHEN g %% 13 = 0 THEN 'pending_verification' ELSE 'active' END, 'none',
              g %% 29 = 0, CASE WHEN g %% 29 = 0 THEN 'sustained_failure_5d12h' ELSE '' END,
              now() - interval '31 days', now()
         FROM generate_series(1, 100) g""",
    """INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major,
         received_at, data, kafka_topic, kafka_partition, kafka_offset)
       SELECT %(t)s::text, g, 'ledger', md5(g::text), CASE WHEN g %% 4 = 0 THEN 'account.created'
              ELSE 'transaction.posted' END, '1.0.0', 1,
              now() - interval '30 days' + (g * (2592000.0 / %(events)s::bigint)) * interval '1 second',
              %(payload)s::json, 'lerian.streaming.ledger', g %% 6, g
         FROM generate_series(1, %(events)s::bigint) g""",
    "INSERT INTO tenant_counters (tenant_id, last_seq) VALUES (%(t)s::text, %(events)s::bigint)",
    """CREATE TEMP TABLE push_subs AS
       SELECT row_number() OVER (ORDER BY id) - 1 AS n, id FROM subscriptions
        WHERE tenant_id = %(t)s::text AND sink_kind = 'webhook'""",
    """INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at,
         last_error_class, created_at, updated_at)
       SELECT gen_random_uuid(), %(t)s::text, s.id, g * (%(events)s::bigint / %(jobs)s::bigint),
              CASE WHEN g > %(jobs)s::bigint - 1000 THEN 'pending' WHEN g %% 50 = 0 THEN 'dead_lettered' ELSE 'delivered' END,
              1, e.received_at, '', e.received_at, e.received_at
         FROM generate_series(1, %(jobs)s::bigint) g
         JOIN push_subs s ON s.n = g %% 80
         JOIN event_log e ON e.tenant_id = %(t)s::text AND e.seq = g * (%(events)s::bigint / %(jobs)s::bigint)""",
    """INSERT INTO delivery_attempts (id, job_id, tenant_id, subscription_id, sink_kind, event_seq, attempt_no,
         outcome, status_code, error_class, detail, latency_ms, attempted_at)
       SELECT gen_random_uuid(), NULL, %(t)s::text, CASE WHEN o = 'poison' THEN NULL ELSE s.id END,
              CASE WHEN o = 'poison' THEN '' ELSE 'webhook' END, g, 1, o,
              CASE o WHEN 'delivered' THEN 200 WHEN 'poison' THEN 0 ELSE 503 END,
              CASE WHEN o IN ('failed', 'dead_lettered') THEN 'http_5xx' ELSE '' END, '', 20,
              now() - interval '30 days' + (g * (2592000.0 / %(attempts)s::bigint)) * interval '1 second'
         FROM generate_series(1, %(attempts)s::bigint) g
         JOIN push_subs s ON s.n = (g * 7) %% 80
         CROSS JOIN LATERAL (SELECT CASE WHEN g %% 100 < 80 THEN 'delivered' WHEN g %% 100 < 95 THEN 'failed'
                                         WHEN g %% 100 < 97 THEN 'dead_lettered' WHEN g %% 100 < 98 THEN 'disabled'
                                         ELSE 'poison' END AS o) pick""",
    """INSERT INTO subscription_health (subscription_id, tenant_id, last_success_at, last_failure_at,
         consecutive_failures, auto_disabled, disabled_reason, updated_at)
       SELECT subscription_id, %(t)s::text, max(attempted_at) FILTER (WHERE outcome = 'delivered'),
              max(attempted_at) FILTER (WHERE outcome IN ('failed', 'dead_lettered')), 0, false, '', now()
         FROM delivery_attempts WHERE tenant_id = %(t)s::text AND subscription_id IS NOT NULL GROUP BY 1""",
    "UPDATE retention_coverage SET coverage_start = now() - interval '31 days'",
    # What ingest's matcher records per batch: events per UTC hour and exact set of matching pull subscriptions.
    f"""INSERT INTO pull_eligibility_hourly (tenant_id, bucket_start, subscription_ids, events)
       SELECT tenant_id, hour, ids, count(*) FROM (
         SELECT e.tenant_id, date_trunc('hour', e.received_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour,
                array_agg(s.id ORDER BY s.id::text) AS ids
           FROM event_log e {queries.PULL_MATCH.replace('%', '%%')}
          WHERE e.tenant_id = %(t)s::text GROUP BY e.tenant_id, e.seq, 2) per_event
        GROUP BY 1, 2, 3""",
]


def load(dsn: str, *, events: int, attempts: int, jobs: int) -> float:
    started = time.monotonic()
    params = {"t": TENANT, "events": events, "attempts": attempts, "jobs": jobs, "payload": PAYLOAD}
    with psycopg.connect(dsn) as conn:
        for statement in LOAD_SQL:
            conn.execute(statement, params)
    with psycopg.connect(dsn, autocommit=True) as conn:
        for table in TABLES:
            conn.execute(f"VACUUM ANALYZE {table}")
    return time.monotonic() - started
