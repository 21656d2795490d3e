"""The bulk allowance (N62): a recovery's jobs claimed at a set pace per process (pure logic, a fake clock)."""

from __future__ import annotations

from workers.deliver.bulk import BulkAllowance


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_full_bucket_then_the_rate():
    clock = Clock()
    allowance = BulkAllowance(200.0, 100, clock)
    assert allowance.available() == 100
    allowance.spend(100)
    assert allowance.available() == 0
    clock.now += 0.25
    assert allowance.available() == 50
    clock.now += 10
    assert allowance.available() == 100, "at most a burst is banked"


def test_overspending_loops_wait_for_the_debt():
    clock = Clock()
    allowance = BulkAllowance(100.0, 100, clock)
    allowance.spend(100)
    allowance.spend(100)  # a second loop claimed on the same reading
    clock.now += 1.0
    assert allowance.available() == 0
    clock.now += 0.5
    assert allowance.available() == 50


def test_claimed_over_a_minute_stays_within_rate_times_time_plus_burst():
    clock, claimed = Clock(), 0
    allowance = BulkAllowance(400.0, 100, clock)
    for _ in range(60 * 20):  # a claim every 50 ms, each taking all it may
        take = allowance.available()
        allowance.spend(take)
        claimed += take
        clock.now += 0.05
    assert 400 * 60 - 100 <= claimed <= 400 * 60 + 100


def test_no_rate_is_no_limit():
    allowance = BulkAllowance(0.0, 100, Clock())
    allowance.spend(10_000)
    assert allowance.available() == 100
