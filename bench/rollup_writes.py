"""What the dashboard's hourly count rollups cost their writers: one batch's transaction with and without
the rollup triggers of revision 0011.

On a scratch database (created, migrated, dropped), each timed transaction writes one batch the way
its writer does, with a binary ``COPY``: ingest's events (``event_log``, ~320-byte payloads) and
their delivery jobs (``delivery_jobs``, one per event and subscription), and the delivery engine's
attempts (``delivery_attempts``). Each batch goes alternately (on, off, on, off ...) into the real
table, with its rollup triggers, and into a copy made with ``CREATE TABLE ... (LIKE ... INCLUDING
ALL)`` (same columns and indexes, no trigger), on one connection, so both see the same machine load
and the trigger's cached plan stays warm. Each figure is the median of ``--repeat`` transactions,
commit included; ``cost`` is the difference per batch and per row.

Run: ``python bench/rollup_writes.py`` (``--batch 500 --repeat 200``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402
import uuid_utils  # noqa: E402

from bench._ingest_setup import Scratch  # noqa: E402
from hub.dataplane.models import DeliveryJob, LoggedEvent  # noqa: E402
from hub.tableshape import column_list, copy_types  # noqa: E402
from workers.deliver.store import ATTEMPT_COLUMNS, ATTEMPT_TYPES, AttemptRow  # noqa: E402

TENANT = "bench-rollups"
PAYLOAD = '{"transactionId":"' + "x" * 300 + '"}'
SUBSCRIPTIONS = [uuid.uuid4() for _ in range(10)]


class Writer:
    """Writes batches like ingest and the delivery engine, numbering events on from the last batch."""

    def __init__(self, conn: psycopg.Connection, batch: int) -> None:
        self.conn, self.batch, self.seq = conn, batch, 0

    def events(self, table: str) -> None:
        now = datetime.now(UTC)
        with self.conn.cursor().copy(f"COPY {table} ({column_list(LoggedEvent)}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(copy_types(LoggedEvent))
            for _ in range(self.batch):
                self.seq += 1
                copy.write_row((TENANT, self.seq, "ledger", str(uuid.uuid4()), "transaction.posted", "1.0.0", 1, None,
                                None, now, now, '{"specversion":"1.0"}', PAYLOAD, "t", 0, self.seq))

    def jobs(self, table: str) -> None:
        now = datetime.now(UTC)
        with self.conn.cursor().copy(f"COPY {table} ({column_list(DeliveryJob)}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(copy_types(DeliveryJob))
            for _ in range(self.batch // len(SUBSCRIPTIONS)):
                self.seq += 1
                for sub in SUBSCRIPTIONS:
                    copy.write_row((uuid_utils.uuid7(), TENANT, sub, self.seq, "pending", 0, now, None, "", now, now))

    def attempts(self, table: str) -> None:
        now = datetime.now(UTC)
        with self.conn.cursor().copy(f"COPY {table} ({ATTEMPT_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(ATTEMPT_TYPES)
            for i in range(self.batch):
                self.seq += 1
                copy.write_row(AttemptRow(
                    id=uuid_utils.uuid7(), job_id=uuid_utils.uuid7(), tenant_id=TENANT,
                    subscription_id=SUBSCRIPTIONS[i % len(SUBSCRIPTIONS)], sink_kind="webhook", event_seq=self.seq,
                    attempt_no=1, outcome="delivered" if i % 10 else "failed", status_code=200, error_class="",
                    detail="", latency_ms=12, attempted_at=now))


def timed(conn: psycopg.Connection, write: Callable[[str], None], table: str) -> float:
    started = time.perf_counter()
    with conn.transaction():
        write(table)
    return (time.perf_counter() - started) * 1000


def measure(dsn: str, batch: int, repeat: int) -> dict[str, tuple[list[float], list[float]]]:
    rows = {"event_log": "events", "delivery_jobs": "jobs", "delivery_attempts": "attempts"}
    results = {}
    with psycopg.connect(dsn, autocommit=True) as conn:
        writer = Writer(conn, batch)
        for table, method in rows.items():
            conn.execute(f"CREATE TABLE {table}_plain (LIKE {table} INCLUDING ALL)")
            write = getattr(writer, method)
            on: list[float] = []
            off: list[float] = []
            for i in range(repeat + 5):
                for target, found in ((table, on), (f"{table}_plain", off)):
                    sample = timed(conn, write, target)
                    if i >= 5:  # warm-up
                        found.append(sample)
            results[table] = (on, off)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=500, help="rows per batch (jobs: 10 subscriptions per event)")
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    with Scratch() as scratch:
        results = measure(scratch.dsn, args.batch, args.repeat)
    print(f"{args.batch} rows per batch, median of {args.repeat} transactions each,"
          " with and without the triggers alternating\n")
    print(f"{'table':20}{'with rollup ms':>16}{'without ms':>12}{'ratio':>8}{'cost ms':>10}{'cost us/row':>13}")
    for table, (on, off) in results.items():
        with_, without = statistics.median(on), statistics.median(off)
        print(f"{table:20}{with_:>16.2f}{without:>12.2f}{with_ / without:>8.2f}{with_ - without:>10.2f}"
              f"{(with_ - without) * 1000 / args.batch:>13.1f}")
    print(f"\nrun at {datetime.now(UTC).isoformat(timespec='seconds')}")


if __name__ == "__main__":
    main()
