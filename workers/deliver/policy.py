"""What happens to a job after a try, or when its subscription cannot receive (pure logic).

Outcomes follow the hub's delivery rules: ``delivered``; ``failed`` (a retry is scheduled on the
ladder with ±jitter, a destination's Retry-After honoured within [step, 2 × step]);
``dead_lettered`` when the budget is spent or no retry can help (410, oversized); ``disabled``
when the subscription is disabled or deleted, or was never deliverable within the retry horizon
counted from the job's creation. A held job (subscription enabled but not yet ``active``) gets
no attempt and spends no budget.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from hub.dataplane.models import JobState
from hub.sinks.base import AttemptResult
from hub.sinks.vocabulary import Outcome

# The states a try ends in, read once (an enum member's ``value`` is a property call).
DELIVERED, DEAD_LETTERED, RETRYING = JobState.delivered.value, JobState.dead_lettered.value, JobState.retrying.value


class Decision(NamedTuple):
    """The job's next state, and the attempt outcome to record (None: no attempt row)."""

    state: str  # a JobState value
    next_attempt_at: datetime
    attempts: int
    outcome: Outcome | None
    error_class: str = ""


@dataclass(frozen=True)
class RetryPolicy:
    ladder: tuple[float, ...]
    jitter: float = 0.2
    hold_recheck_seconds: float = 30.0

    @property
    def horizon(self) -> timedelta:
        """How long a job may wait for its subscription to become deliverable (the ladder's sum)."""
        return timedelta(seconds=sum(self.ladder))

    @property
    def max_tries(self) -> int:
        return len(self.ladder) + 1

    def retry_delay(self, tries: int, retry_after: float | None, rng: random.Random | None = None) -> float:
        """Seconds before the next try after ``tries`` failed tries (1-based)."""
        step = self.ladder[tries - 1]
        if retry_after is not None:
            return min(max(retry_after, step), 2 * step)
        spread = (rng or random).uniform(-self.jitter, self.jitter)
        return step * (1 + spread)

    def after_try(self, *, result: AttemptResult, tries: int, now: datetime,
                  rng: random.Random | None = None) -> Decision:
        """The decision after try number ``tries`` produced ``result``."""
        if result.ok:
            return Decision(DELIVERED, now, tries, Outcome.delivered)
        if result.terminal or tries >= self.max_tries:
            return Decision(DEAD_LETTERED, now, tries, Outcome.dead_lettered, result.error_class)
        delay = self.retry_delay(tries, result.retry_after_seconds, rng)
        return Decision(RETRYING, now + timedelta(seconds=delay), tries, Outcome.failed, result.error_class)

    def held(self, *, state: str, tries: int, created_at: datetime, now: datetime) -> Decision:
        """A job whose subscription is enabled but not active: wait, or end ``disabled`` past the horizon."""
        if now - created_at >= self.horizon:
            return Decision(JobState.disabled.value, now, tries, Outcome.disabled)
        return Decision(state, now + timedelta(seconds=self.hold_recheck_seconds), tries, None)

    @staticmethod
    def disabled(*, tries: int, now: datetime) -> Decision:
        return Decision(JobState.disabled.value, now, tries, Outcome.disabled)

    @staticmethod
    def dead_letter(*, tries: int, now: datetime, error_class: str) -> Decision:
        return Decision(JobState.dead_lettered.value, now, tries, Outcome.dead_lettered, error_class)

    @staticmethod
    def deferred(*, state: str, tries: int, now: datetime, seconds: float) -> Decision:
        """Not tried (our own limits were busy): due again soon, no attempt, no budget spent."""
        return Decision(state, now + timedelta(seconds=seconds), tries, None)


def policy_from(ladder: Sequence[float], jitter: float, hold_recheck_seconds: float) -> RetryPolicy:
    if not ladder:
        raise ValueError("HUB_DELIVER_RETRY_LADDER_SECONDS needs at least one step")
    return RetryPolicy(tuple(float(step) for step in ladder), jitter, hold_recheck_seconds)
