"""The dashboard's SQL, one statement per figure, each scoped to the caller (tenant, delegated party).

Each period figure has two statements: one counting the raw table over any range, and one summing
its hourly rollup (hub/dataplane/rollups.py) over whole hours; ``hour_parts`` (hub/dashboard/period.py)
says which range each reads. The ``*_rollup`` statements take ``:start``/``:end`` on the hour.

A delegated caller sees only its own subscriptions, their jobs and attempts, and the events
stamped with its party; a tenant-wide caller sees the whole tenant, including the ``poison``
attempts ingest records under the tenant id it read from a quarantined record.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import TextClause, text

from hub.dataplane.models import DUE_JOB_STATES, JobState, state_in
from hub.dataplane.rollups import NO_SUBSCRIPTION

# Buckets: ``date_trunc`` in UTC; the first bucket's key is the truncation of window_start.
BUCKET = "date_trunc(:unit, {column} AT TIME ZONE 'UTC')"

# The ingest matcher's rules (type, origin, delegated party, schema major) over the pull
# subscriptions that exist now (live and enabled) and already existed when the event arrived, as
# ingest's rollup records them.
PULL_MATCH = """
  JOIN subscriptions s
    ON s.tenant_id = e.tenant_id AND s.sink_kind = 'pull' AND s.deleted_at IS NULL AND s.enabled
   AND s.created_at <= e.received_at
   AND (s.event_types IS NULL OR jsonb_array_length(s.event_types) = 0
        OR jsonb_exists(s.event_types, e.event_type))
   AND (coalesce(s.origin, '') = '' OR s.origin = e.source)
   AND (coalesce(s.delegated_scope, '') = '' OR s.delegated_scope = e.delegated_scope)
   AND coalesce((s.event_majors ->> e.event_type)::int, s.schema_major, 1) = e.schema_major
"""


@dataclass(frozen=True)
class Scope:
    """Whose figures: a tenant, narrowed to a delegated party when the caller has one."""

    tenant_id: str
    delegated_scope: str | None = None

    def params(self) -> dict[str, str]:
        found = {"tenant": self.tenant_id}
        if self.delegated_scope is not None:
            found["scope"] = self.delegated_scope
        return found

    def subscriptions(self, alias: str = "") -> str:
        prefix = f"{alias}." if alias else ""
        clause = f"{prefix}tenant_id = :tenant AND {prefix}deleted_at IS NULL"
        if self.delegated_scope is not None:
            clause += f" AND {prefix}delegated_scope = :scope"
        return clause

    def owned_by_subscription(self) -> str:
        """The extra filter on jobs or attempts for a delegated caller (its subscriptions only)."""
        if self.delegated_scope is None:
            return ""
        return (" AND subscription_id IN (SELECT id FROM subscriptions"
                " WHERE tenant_id = :tenant AND delegated_scope = :scope)")

    def events(self, alias: str = "") -> str:
        prefix = f"{alias}." if alias else ""
        return f" AND {prefix}delegated_scope = :scope" if self.delegated_scope is not None else ""


def census(scope: Scope) -> TextClause:
    return text(f"SELECT enabled, verification_state, sink_kind, count(*) FROM subscriptions"
                f" WHERE {scope.subscriptions()} GROUP BY 1, 2, 3")


def backlog(scope: Scope) -> TextClause:
    return text("SELECT count(*), min(created_at) FROM delivery_jobs WHERE tenant_id = :tenant"
                f" AND {state_in(DUE_JOB_STATES)}" + scope.owned_by_subscription())


def events_received(scope: Scope) -> TextClause:
    bucket = BUCKET.format(column="received_at")
    return text(f"SELECT {bucket} AS bucket, count(*) FROM event_log WHERE tenant_id = :tenant"
                f" AND received_at >= :start AND received_at < :end{scope.events()} GROUP BY 1")


def jobs_created(scope: Scope) -> TextClause:
    # One index range per state (tenant_id, state, created_at): every state a job can be in.
    bucket = BUCKET.format(column="created_at")
    return text(f"SELECT {bucket} AS bucket, count(*) FROM delivery_jobs WHERE tenant_id = :tenant"
                f" AND {state_in(tuple(JobState))}"
                f" AND created_at >= :start AND created_at < :end{scope.owned_by_subscription()} GROUP BY 1")


def attempts(scope: Scope) -> TextClause:
    bucket = BUCKET.format(column="attempted_at")
    return text(f"SELECT {bucket} AS bucket, outcome, count(*) FROM delivery_attempts WHERE tenant_id = :tenant"
                f" AND attempted_at >= :start AND attempted_at < :end{scope.owned_by_subscription()}"
                " GROUP BY 1, 2")


def events_received_rollup(scope: Scope) -> TextClause:
    bucket = BUCKET.format(column="hour")
    return text(f"SELECT {bucket} AS bucket, sum(events)::bigint FROM event_counts_hourly WHERE tenant_id = :tenant"
                f" AND hour >= :start AND hour < :end{scope.events()} GROUP BY 1")


def jobs_created_rollup(scope: Scope) -> TextClause:
    bucket = BUCKET.format(column="hour")
    if scope.delegated_scope is None:
        return text(f"SELECT {bucket} AS bucket, sum(jobs)::bigint FROM job_totals_hourly WHERE tenant_id = :tenant"
                    " AND hour >= :start AND hour < :end GROUP BY 1")
    return text(f"SELECT {bucket} AS bucket, sum(jobs)::bigint FROM job_counts_hourly WHERE tenant_id = :tenant"
                f" AND hour >= :start AND hour < :end{scope.owned_by_subscription()} GROUP BY 1")


def attempts_rollup(scope: Scope) -> TextClause:
    bucket = BUCKET.format(column="hour")
    table = "attempt_totals_hourly" if scope.delegated_scope is None else "attempt_counts_hourly"
    return text(f"SELECT {bucket} AS bucket, outcome, sum(attempts)::bigint FROM {table}"
                f" WHERE tenant_id = :tenant AND hour >= :start AND hour < :end{scope.owned_by_subscription()}"
                " GROUP BY 1, 2")


def pull_eligibility(scope: Scope) -> TextClause:
    bucket = BUCKET.format(column="e.received_at")
    return text(f"SELECT {bucket} AS bucket, count(DISTINCT e.seq), count(*) FROM event_log e {PULL_MATCH}"
                f" WHERE e.tenant_id = :tenant AND e.received_at >= :start AND e.received_at < :end"
                f"{scope.events('e')}{' AND s.delegated_scope = :scope' if scope.delegated_scope else ''}"
                " GROUP BY 1")


def pull_eligibility_rollup(scope: Scope) -> TextClause:
    """Whole hours from ingest's ``pull_eligibility_hourly``: each row is a set of pull subscriptions
    and the events that matched exactly that set; it counts for the members still live now."""
    bucket = BUCKET.format(column="r.bucket_start")
    return text(f"""
WITH live AS (SELECT coalesce(array_agg(id), '{{}}') AS ids FROM subscriptions
               WHERE {scope.subscriptions()} AND sink_kind = 'pull' AND enabled)
SELECT {bucket} AS bucket, sum(r.events)::bigint,
       sum(r.events * cardinality(ARRAY(SELECT unnest(r.subscription_ids) INTERSECT SELECT unnest(live.ids))))::bigint
  FROM pull_eligibility_hourly r CROSS JOIN live
 WHERE r.tenant_id = :tenant AND r.bucket_start >= :start AND r.bucket_start < :end
   AND r.subscription_ids && live.ids
 GROUP BY 1""")


def attention_subscriptions(scope: Scope) -> TextClause:
    return text(f"""
SELECT s.id, s.sink_kind, s.enabled, s.verification_state,
       s.auto_disabled OR coalesce(h.auto_disabled, false) AS auto,
       coalesce(nullif(h.disabled_reason, ''), s.disabled_reason) AS reason, h.last_success_at, h.last_failure_at
  FROM subscriptions s LEFT JOIN subscription_health h ON h.subscription_id = s.id
 WHERE {scope.subscriptions('s')}""")


def attention_attempts(scope: Scope) -> TextClause:
    return text(f"""
SELECT subscription_id, count(*),
       count(*) FILTER (WHERE outcome = 'failed'),
       count(*) FILTER (WHERE outcome = 'dead_lettered'),
       max(attempted_at) FILTER (WHERE outcome = 'delivered'),
       max(attempted_at) FILTER (WHERE outcome IN ('failed', 'dead_lettered')),
       max(attempted_at) FILTER (WHERE outcome = 'failed')
  FROM delivery_attempts
 WHERE tenant_id = :tenant AND attempted_at >= :start AND attempted_at < :end
   AND subscription_id IS NOT NULL{scope.owned_by_subscription()}
 GROUP BY subscription_id""")


def attention_attempts_rollup(scope: Scope) -> TextClause:
    """``attention_attempts`` over whole hours, from the hourly rollup (same columns)."""
    return text(f"""
SELECT subscription_id, sum(attempts)::bigint,
       coalesce(sum(attempts) FILTER (WHERE outcome = 'failed'), 0)::bigint,
       coalesce(sum(attempts) FILTER (WHERE outcome = 'dead_lettered'), 0)::bigint,
       max(last_attempted_at) FILTER (WHERE outcome = 'delivered'),
       max(last_attempted_at) FILTER (WHERE outcome IN ('failed', 'dead_lettered')),
       max(last_attempted_at) FILTER (WHERE outcome = 'failed')
  FROM attempt_counts_hourly
 WHERE tenant_id = :tenant AND hour >= :start AND hour < :end
   AND subscription_id <> '{NO_SUBSCRIPTION}'{scope.owned_by_subscription()}
 GROUP BY subscription_id""")
