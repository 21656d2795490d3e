"""The retry ladder, jitter, Retry-After bounds and held-job horizon (pure logic, no I/O)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from hub.config import Settings
from hub.sinks.base import AttemptResult
from hub.sinks.vocabulary import ErrorClass, Outcome
from workers.deliver.policy import RetryPolicy, policy_from

LADDER = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0)
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_default_ladder_is_the_documented_one() -> None:
    settings = Settings()
    assert tuple(settings.deliver_retry_ladder_seconds) == LADDER
    assert settings.deliver_retry_jitter == 0.2
    assert settings.deliver_auto_disable_seconds == 5 * 86400 + 12 * 3600
    assert policy_from(LADDER, 0.2, 30).horizon == timedelta(seconds=sum(LADDER))  # about 32 h


@pytest.mark.parametrize("tries", range(1, len(LADDER) + 1))
def test_jitter_stays_within_twenty_percent(tries: int) -> None:
    policy = RetryPolicy(LADDER, 0.2)
    rng = random.Random(tries)
    step = LADDER[tries - 1]
    delays = [policy.retry_delay(tries, None, rng) for _ in range(500)]
    assert all(0.8 * step <= delay <= 1.2 * step for delay in delays)
    assert max(delays) - min(delays) > 0.2 * step  # it does spread


@pytest.mark.parametrize(("retry_after", "expected"), [(1, 300), (450, 450), (10_000, 600), (0, 300)])
def test_retry_after_is_clamped_to_step_and_twice_step(retry_after: float, expected: float) -> None:
    assert RetryPolicy(LADDER, 0.2).retry_delay(2, retry_after) == expected


def test_budget_and_terminal_results() -> None:
    policy = RetryPolicy((1.0, 2.0))
    failure = AttemptResult.failure(ErrorClass.http_5xx, "503")
    assert policy.after_try(result=failure, tries=1, now=NOW).outcome is Outcome.failed
    assert policy.after_try(result=failure, tries=2, now=NOW).outcome is Outcome.failed
    spent = policy.after_try(result=failure, tries=3, now=NOW)
    assert (spent.state, spent.outcome, spent.error_class) == ("dead_lettered", Outcome.dead_lettered, "http_5xx")
    gone = AttemptResult.failure(ErrorClass.http_410, "410", terminal=True)
    assert policy.after_try(result=gone, tries=1, now=NOW).outcome is Outcome.dead_lettered
    assert policy.after_try(result=AttemptResult.success(), tries=1, now=NOW).state == "delivered"


def test_held_jobs_wait_then_end_disabled_past_the_horizon() -> None:
    policy = RetryPolicy((10.0, 20.0), hold_recheck_seconds=5)
    waiting = policy.held(state="pending", tries=0, created_at=NOW, now=NOW + timedelta(seconds=29))
    assert (waiting.outcome, waiting.state, waiting.attempts) == (None, "pending", 0)
    assert waiting.next_attempt_at == NOW + timedelta(seconds=34)
    ended = policy.held(state="pending", tries=0, created_at=NOW, now=NOW + timedelta(seconds=30))
    assert (ended.outcome, ended.state) == (Outcome.disabled, "disabled")
