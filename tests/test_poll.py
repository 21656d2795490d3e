"""The suite's one poll-until helper (devkit/poll.py)."""

from __future__ import annotations

import itertools

import pytest

from devkit.poll import wait_until


def test_returns_the_first_truthy_value():
    calls = itertools.count(1)
    assert wait_until(lambda: (n := next(calls)) >= 3 and n, timeout=5, interval=0.01) == 3


def test_names_what_it_waited_for_and_the_last_value():
    with pytest.raises(AssertionError, match=r"timed out after 0.1 s waiting for the moon; last value 0"):
        wait_until(lambda: 0, timeout=0.1, interval=0.02, message="the moon")


def test_asks_once_more_at_the_deadline():
    calls = []
    with pytest.raises(AssertionError):
        wait_until(lambda: calls.append(1), timeout=0, interval=1)
    assert len(calls) == 1
