"""The chaos schedule (chaos.schedule): every kind at least once, in order, the same for the same seed."""

from __future__ import annotations

from itertools import pairwise

from chaos.schedule import FULL_KINDS, FULL_SECONDS, SHORT_KINDS, make_schedule


def test_the_full_form_has_every_kind_and_replays_from_its_seed() -> None:
    schedule = make_schedule(4242, 30, short=False)
    assert len(schedule) == 30 and set(FULL_KINDS) <= {fault.kind for fault in schedule}
    assert {"kill_grpc", "kill_relay", "consumer_disconnect"} <= set(FULL_KINDS)
    for earlier, later in pairwise(schedule):  # one at a time, never overlapping
        assert later.at >= earlier.at + FULL_SECONDS[earlier.kind]
    assert make_schedule(4242, 30, short=False) == schedule


def test_the_short_form_draws_from_its_own_kinds() -> None:
    schedule = make_schedule(7, 5, short=True)
    assert sorted(fault.kind for fault in schedule) == sorted(SHORT_KINDS)
