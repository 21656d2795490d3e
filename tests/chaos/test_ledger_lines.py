"""The ledger's job lines (chaos.ledger.jobs_lines): a job still scheduled once the run drained fails it."""

from __future__ import annotations

from collections import Counter

from chaos.ledger import Ledger, jobs_lines


def lines(rows: list[tuple[str, str, str, bool]]) -> dict[str, tuple[str, bool]]:
    ledger = Ledger()
    jobs_lines(ledger, rows, 2, Counter({job: 1 for _, job, state, _ in rows if state == "delivered"}))
    return {line.name: (line.figure, line.holds) for line in ledger.lines}


def test_every_job_ended_balances():
    got = lines([("sqs", "j1", "delivered", False), ("sqs", "j2", "dead_lettered", False)])
    assert got["jobs sqs: still scheduled after drain"] == ("0", True)
    assert got["jobs sqs: created = d+dl+dis+sched"] == ("2 = 1 + 1 + 0 + 0", True)


def test_a_job_still_due_after_the_drain_fails_the_ledger():
    got = lines([("sqs-fifo", "j1", "delivered", False), ("sqs-fifo", "j2", "waiting", False)])
    assert got["jobs sqs-fifo: created = d+dl+dis+sched"] == ("2 = 1 + 0 + 0 + 1", True)
    assert got["jobs sqs-fifo: still scheduled after drain"] == ("1 (e.g. job j2, waiting)", False)
    assert got["jobs sqs-fifo: in flight after drain"] == ("0", True)
