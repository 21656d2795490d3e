"""The served shapes of the two dashboard routes, and the projections that build their bodies."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from hub.dashboard.attention import AttentionReason
from hub.dashboard.service import (
    BucketCounts, Snapshot, age_seconds, attempt_counts, census_body,
)
from hub.sinks.vocabulary import SinkKind
from hub.subscription.projection import timestamp
from hub.subscription.schemas import VerificationState

PULL_OMITTED = "window_exceeds_pull_ceiling"


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DashboardDeliveryAttemptCounts(_Closed):
    delivered: int
    failed: int
    dead_lettered: int
    disabled: int
    available: int
    poison: int


class DashboardPushPeriod(_Closed):
    delivery_jobs_created: int
    delivery_attempts: DashboardDeliveryAttemptCounts


class DashboardPullPeriod(_Closed):
    eligible_events: int
    eligible_subscription_matches: int


class DashboardTimeBucket(_Closed):
    bucket_start: datetime
    bucket_end: datetime
    events_received: int
    push: DashboardPushPeriod
    pull: DashboardPullPeriod | None


class DashboardSelectedPeriod(_Closed):
    events_received: int
    push: DashboardPushPeriod
    pull: DashboardPullPeriod | None
    pull_omitted_reason: str | None
    pull_window_ceiling_hours: int
    time_series: list[DashboardTimeBucket]


class DashboardEnabledCounts(_Closed):
    enabled: int
    disabled: int


class DashboardVerificationStateCounts(_Closed):
    pending_verification: int
    active: int
    degraded: int
    disabled: int


class DashboardSinkKindCounts(_Closed):
    webhook: int
    sqs: int
    rabbitmq: int
    eventbridge: int
    pull: int


class DashboardChannelCounts(_Closed):
    push: int
    pull: int


class DashboardSubscriptionCensus(_Closed):
    total: int
    by_enabled: DashboardEnabledCounts
    by_verification_state: DashboardVerificationStateCounts
    by_sink_kind: DashboardSinkKindCounts
    by_channel: DashboardChannelCounts


class DashboardCurrentPush(_Closed):
    pending_jobs: int
    oldest_pending_job_age_seconds: int | None


class DashboardCurrentState(_Closed):
    subscriptions: DashboardSubscriptionCensus
    push: DashboardCurrentPush


class DashboardSnapshot(_Closed):
    """Documents ``GET /v1/dashboard``'s body; the route serves ``as_snapshot``'s dict."""

    snapshot_at: datetime
    coverage_start: datetime
    window_start: datetime
    window_end: datetime
    current_state: DashboardCurrentState
    selected_period: DashboardSelectedPeriod


class NeedsAttentionItem(_Closed):
    subscription_id: uuid.UUID
    sink_kind: SinkKind
    enabled: bool
    verification_state: VerificationState
    auto_disabled: bool
    disabled_reason: str
    last_success_at: datetime | None
    last_failure_at: datetime | None
    period_delivery_attempts: int
    period_failed_attempts: int
    period_dead_lettered_attempts: int
    attention_reasons: list[AttentionReason]


class NeedsAttentionPage(_Closed):
    snapshot_at: datetime
    window_start: datetime
    window_end: datetime
    items: list[NeedsAttentionItem]
    next_cursor: str


def _push(counts: BucketCounts) -> dict[str, Any]:
    return {"delivery_jobs_created": counts.jobs, "delivery_attempts": attempt_counts(counts.attempts)}


def _pull(counts: BucketCounts, computed: bool) -> dict[str, int] | None:
    if not computed:
        return None
    return {"eligible_events": counts.pull_events, "eligible_subscription_matches": counts.pull_matches}


def _total(snapshot: Snapshot) -> BucketCounts:
    total = BucketCounts(attempts=Counter())
    for _, _, counts in snapshot.buckets:
        total.events += counts.events
        total.jobs += counts.jobs
        total.attempts.update(counts.attempts)
        # Each event falls in exactly one bucket, so the distinct counts add up here too.
        total.pull_events += counts.pull_events
        total.pull_matches += counts.pull_matches
    return total


def as_snapshot(snapshot: Snapshot, *, pull_ceiling_hours: int) -> dict[str, Any]:
    total = _total(snapshot)
    pulled = snapshot.pull_computed
    series = [{"bucket_start": timestamp(start), "bucket_end": timestamp(end), "events_received": counts.events,
               "push": _push(counts), "pull": _pull(counts, pulled)} for start, end, counts in snapshot.buckets]
    return {
        "snapshot_at": timestamp(snapshot.snapshot_at),
        "coverage_start": timestamp(snapshot.coverage_start),
        "window_start": timestamp(snapshot.period.start),
        "window_end": timestamp(snapshot.period.end),
        "current_state": {
            "subscriptions": census_body(snapshot.census),
            "push": {"pending_jobs": snapshot.pending_jobs,
                     "oldest_pending_job_age_seconds": age_seconds(snapshot.snapshot_at, snapshot.oldest_pending_at)},
        },
        "selected_period": {
            "events_received": total.events, "push": _push(total), "pull": _pull(total, pulled),
            "pull_omitted_reason": None if pulled else PULL_OMITTED,
            "pull_window_ceiling_hours": pull_ceiling_hours, "time_series": series,
        },
    }
