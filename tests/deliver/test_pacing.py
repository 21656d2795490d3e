"""The pure slot logic of rate limits per destination (N56): grants, refusals, no credit after a pause."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from workers.deliver.pacing import GRACE, HORIZON, MIN_WAIT, Grant, grant, plan, wanted_slots

NOW = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)


def test_an_idle_subscription_gets_slots_from_now_one_interval_apart_within_the_horizon():
    given = grant(next_slot=NOW, now=NOW, wanted=100, rate=50, horizon=0.5)
    assert len(given.offsets) == 26  # 0, 0.02, …, 0.50: the slot at the horizon is inside it
    assert given.offsets[0] == 0.0
    assert all(b - a == pytest.approx(0.02) for a, b in zip(given.offsets, given.offsets[1:]))
    assert given.next_slot == NOW + timedelta(seconds=26 * 0.02)
    assert len(given.later) == 74


def test_refused_jobs_wait_until_their_slot_enters_the_horizon():
    given = grant(next_slot=NOW, now=NOW, wanted=30, rate=10, horizon=0.5)
    assert len(given.offsets) == 6  # 0.0 … 0.5
    assert given.later[0] == pytest.approx(0.6 - 0.5)
    assert given.later[-1] == pytest.approx(2.9 - 0.5)
    assert all(b > a for a, b in zip(given.later, given.later[1:])), "refusals come back spread, not all at once"


def test_a_pause_leaves_no_credit():
    """A next slot long in the past counts as now: the grant after an idle hour is paced like the first."""
    after_pause = grant(next_slot=NOW - timedelta(hours=1), now=NOW, wanted=1000, rate=50, horizon=0.5)
    fresh = grant(next_slot=NOW, now=NOW, wanted=1000, rate=50, horizon=0.5)
    assert after_pause == fresh


def test_a_busy_subscription_is_granted_only_what_is_left_of_the_horizon():
    given = grant(next_slot=NOW + timedelta(seconds=0.4), now=NOW, wanted=100, rate=50, horizon=0.5)
    assert given.offsets[0] == pytest.approx(0.4) and len(given.offsets) == 6
    assert given.next_slot == NOW + timedelta(seconds=0.4 + 6 * 0.02)
    nothing = grant(next_slot=NOW + timedelta(seconds=2), now=NOW, wanted=5, rate=50, horizon=0.5)
    assert nothing.offsets == ()
    assert nothing.next_slot == NOW + timedelta(seconds=2), "a refusal takes no slot"
    assert nothing.later[0] == pytest.approx(1.5)


def test_fewer_jobs_than_room_take_only_their_slots():
    given = grant(next_slot=NOW, now=NOW, wanted=3, rate=5, horizon=HORIZON)
    assert given.offsets == pytest.approx((0.0, 0.2, 0.4)) and given.later == ()
    assert given.next_slot == NOW + timedelta(seconds=0.6)


def test_a_slow_rate_admits_one_job_at_a_time():
    given = grant(next_slot=NOW, now=NOW, wanted=4, rate=1, horizon=0.5)
    assert given.offsets == (0.0,)
    assert given.later == pytest.approx((0.5, 1.5, 2.5))


def test_refusals_wait_at_least_the_minimum():
    given = grant(next_slot=NOW, now=NOW, wanted=2, rate=10_000, horizon=0.0)
    assert given.offsets == (0.0,) and given.later == (MIN_WAIT,)


@pytest.mark.parametrize("rate", [1, 3, 7, 50, 333, 10_000])
def test_consecutive_grants_never_put_more_than_rate_slots_in_any_second(rate):
    """Grants chained through next_slot, taken at arbitrary moments, space every slot 1/rate apart."""
    now, next_slot, slots = NOW, NOW, []
    for step in range(200):
        given = grant(next_slot=next_slot, now=now, wanted=step % 17 + 1, rate=rate)
        slots += [now + timedelta(seconds=offset) for offset in given.offsets]
        next_slot = given.next_slot
        now += timedelta(milliseconds=(step * 37) % 300)
    times = sorted(slot.timestamp() for slot in slots)
    assert all(b - a >= 1 / rate - 1e-6 for a, b in zip(times, times[1:]))
    ends = 0
    for start, value in enumerate(times):  # sliding 1 s window [value, value + 1), less the 1 µs timestamp rounding
        while ends < len(times) and times[ends] < value + 1 - 1e-5:
            ends += 1
        assert ends - start <= rate


def test_plan_hands_out_slots_in_batch_order_and_refuses_the_rest():
    limited, other = uuid.uuid4(), uuid.uuid4()
    grants = {limited: Grant(offsets=(0.0, 0.1), later=(0.3, 0.4), next_slot=NOW)}
    result = plan([limited, other, limited, limited, other, limited], grants, granted_at=100.0)
    assert result.at == {0: 100.0, 2: 100.1}
    assert result.wait == {3: 0.3, 5: 0.4}


def test_wanted_slots_counts_only_limited_subscriptions():
    limited, unlimited = uuid.uuid4(), uuid.uuid4()
    counts = wanted_slots([limited, unlimited, limited], {limited: 5, unlimited: None})
    assert counts == {limited: 2}


def test_grace_is_a_small_fraction_of_a_second():
    """The receiver-side bound of N56 (rate × (1 + GRACE) + 1 in any second) needs GRACE small."""
    assert 0 < GRACE <= 0.1


def test_refusals_queue_behind_the_refusals_of_earlier_claims():
    """N58: a second claim's refusals take the slots after the first claim's, not the same ones again."""
    first = grant(next_slot=NOW, now=NOW, wanted=500, rate=50, horizon=0.5)
    assert first.waiting_until == NOW + timedelta(seconds=500 * 0.02)
    later = NOW + timedelta(seconds=0.05)
    second = grant(next_slot=first.next_slot, now=later, wanted=500, rate=50, horizon=0.5,
                   waiting_until=first.waiting_until)
    first_at = [NOW + timedelta(seconds=wait + 0.5) for wait in first.later]
    second_at = [later + timedelta(seconds=wait + 0.5) for wait in second.later]
    assert min(second_at) >= max(first_at) + timedelta(seconds=0.02) - timedelta(microseconds=1)
    assert second.waiting_until == first.waiting_until + timedelta(seconds=len(second.later) * 0.02)


def test_a_backlog_claimed_in_turn_comes_back_spread_over_the_time_its_rate_needs():
    """10,000 jobs claimed 500 at a time, 50 ms apart, at 50/s: each refused job comes back at its own
    queued slot, 1/rate apart across all the claims, so the backlog returns at the rate it can be sent
    (without the queue every claim's refusals came back within the same ~10 s, 20 to a slot)."""
    now, next_slot, waiting_until, returns, admitted = NOW, NOW, None, [], 0
    for _ in range(20):
        given = grant(next_slot=next_slot, now=now, wanted=500, rate=50, waiting_until=waiting_until)
        admitted += len(given.offsets)
        returns += [(now + timedelta(seconds=wait + HORIZON)).timestamp() for wait in given.later]
        next_slot, waiting_until = given.next_slot, given.waiting_until
        now += timedelta(milliseconds=50)
    returns.sort()
    assert admitted + len(returns) == 10_000
    assert all(b - a >= 0.02 - 1e-6 for a, b in zip(returns, returns[1:]))
    assert returns[-1] - returns[0] == pytest.approx((len(returns) - 1) * 0.02, abs=0.05)


def test_a_past_queue_end_is_no_queue():
    """A waiting_until in the past (every queued job came back) counts as none: refusals queue from the grant."""
    stale = grant(next_slot=NOW, now=NOW, wanted=30, rate=10, horizon=0.5, waiting_until=NOW - timedelta(hours=1))
    fresh = grant(next_slot=NOW, now=NOW, wanted=30, rate=10, horizon=0.5)
    assert stale == fresh


def test_a_grant_without_refusals_leaves_the_queue_end_alone():
    ahead = NOW + timedelta(seconds=3)
    given = grant(next_slot=NOW, now=NOW, wanted=3, rate=50, horizon=0.5, waiting_until=ahead)
    assert given.later == () and given.waiting_until == ahead
