"""bench/compare.py reads the benches' own tables and compares sides the right way round (pure logic)."""

from __future__ import annotations

import statistics

from bench._compare_tables import BENCHES, LOWER, compare_rows, direction, read_figures, tables
from bench._pg_costs import PgSnapshot, Statement, per_delivery, pg_work, statement_deltas

SUSTAINED, INGEST, PUBLISH = BENCHES

SUSTAINED_OUTPUT = """
  run 1: defaults,  1 subs @  6,000/s: offered 6,000 delivered 1,100/s ...

medians of 1 run(s)
| reference | rate/s |
|---|---:|
| ceiling: wrk -> nginx | 52,000 |

| variant | subs/event | offered/s | delivered/s | vs peer | p50 ms | p99 ms | deliver ms CPU/delivery | ingest ms CPU/delivery |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
| defaults | 1 | 6,000 | 1,100 | 0.59 | 900 | 2,400 | 0.81 | 0.12 |
| defaults | 10 | 6,000 | 1,400 | 0.66 | - | 3,100 | 0.62 | 0.03 |
"""

# The table with issue 51's cost columns (CPU of PostgreSQL and Kafka, PostgreSQL's work, per delivery).
SUSTAINED_COSTS_OUTPUT = """
| variant | subs/event | offered/s | delivered/s | postgres cores | postgres ms CPU/delivery | \
kafka ms CPU/delivery | statements/delivery | rows written/delivery | row versions/delivery | \
HOT updates/delivery | WAL bytes/delivery |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| defaults | 1 | 6,000 | 2,000 | 0.60 | 0.300 | 0.045 | 1.25 | 3.10 | 2.05 | 0.40 | 1,234 |
| defaults | 10 | 6,000 | 2,500 | 0.55 | 0.220 | - | - | 2.00 | 1.50 | 0.10 | 610 |
"""  # a backslash at a line's end continues it: one header line

PUBLISH_OUTPUT = """
| scenario | ev/s stored | call p50 ms | call p99 ms | CPU µs/event |
|---|---|---|---|---|
| REST single | 1,576 | 12.0 | 40.5 | api 553, grpc 0, ingest 41 |
"""


def test_tables_are_read_with_their_headers_and_without_the_rule() -> None:
    found = tables(SUSTAINED_OUTPUT)
    assert [table[0][:2] for table in found] == [["reference", "rate/s"], ["variant", "subs/event"]]
    assert found[1][1][:4] == ["defaults", "1", "6,000", "1,100"]


def test_sustained_figures_by_row_key_and_a_dash_is_no_figure() -> None:
    figures = read_figures(SUSTAINED, SUSTAINED_OUTPUT)
    assert figures[("1 / 6,000", "delivered/s")] == 1100.0
    assert figures[("10 / 6,000", "deliver ms CPU/delivery")] == 0.62
    assert ("10 / 6,000", "p50 ms") not in figures
    assert ("1 / 6,000", "vs peer") not in figures  # not a figure compare reads


def test_a_cell_of_parts_gives_one_figure_per_part() -> None:
    figures = read_figures(PUBLISH, PUBLISH_OUTPUT)
    assert figures[("REST single", "CPU µs/event api")] == 553.0
    assert figures[("REST single", "CPU µs/event ingest")] == 41.0
    assert figures[("REST single", "ev/s stored")] == 1576.0


def test_ratios_are_work_over_ref_and_worse_follows_the_figures_direction() -> None:
    ref = [{("1", "delivered/s"): 1000.0, ("1", "deliver ms CPU/delivery"): 0.8}] * 2
    work = [{("1", "delivered/s"): 900.0, ("1", "deliver ms CPU/delivery"): 0.4},
            {("1", "delivered/s"): 940.0, ("1", "deliver ms CPU/delivery"): 0.5}]
    rows = {row.metric: row for row in compare_rows(SUSTAINED, ref, work, statistics.median)}
    assert rows["delivered/s"].ratio == 0.92 and rows["delivered/s"].worse  # fewer deliveries: worse
    assert rows["deliver ms CPU/delivery"].ratio == 0.5625 and not rows["deliver ms CPU/delivery"].worse


def test_a_figure_one_side_lacks_is_left_out() -> None:
    rows = compare_rows(INGEST, [{("drain, 1 sub/event", "median ev/s"): 5000.0}], [{}], statistics.median)
    assert rows == []


def test_sustained_cost_columns_are_figures_and_lower_is_better() -> None:
    figures = read_figures(SUSTAINED, SUSTAINED_COSTS_OUTPUT)
    assert figures[("1 / 6,000", "postgres ms CPU/delivery")] == 0.3
    assert figures[("1 / 6,000", "kafka ms CPU/delivery")] == 0.045
    assert figures[("1 / 6,000", "statements/delivery")] == 1.25
    assert figures[("1 / 6,000", "HOT updates/delivery")] == 0.4
    assert figures[("1 / 6,000", "WAL bytes/delivery")] == 1234.0
    assert figures[("10 / 6,000", "row versions/delivery")] == 1.5
    assert ("10 / 6,000", "statements/delivery") not in figures  # "-": not measured
    assert ("1 / 6,000", "postgres cores") not in figures  # cores are not compared, their cost per delivery is
    for metric in ("postgres ms CPU/delivery", "rows written/delivery", "WAL bytes/delivery"):
        assert direction(SUSTAINED, metric) == LOWER
    ref, work = [{("1", "WAL bytes/delivery"): 1000.0}], [{("1", "WAL bytes/delivery"): 1200.0}]
    assert compare_rows(SUSTAINED, ref, work, statistics.median)[0].worse


def test_statement_calls_and_time_are_counted_statement_by_statement() -> None:
    before = {("hub", 1, True): Statement(100, 50.0), ("hub", 2, True): Statement(50, 9.0),
              ("hub", 3, True): Statement(7, 1.0)}
    after = {("hub", 1, True): Statement(130, 80.0, "SELECT 1"), ("hub", 2, True): Statement(50, 9.0),
             ("hub", 4, True): Statement(5, 2.5, "COPY x")}
    # 1: +30; 2: not called; 4: new, in full; 3: evicted from the full view, not subtracted from the others
    assert statement_deltas(before, after) == [Statement(30, 30.0, "SELECT 1"), Statement(5, 2.5, "COPY x")]


def test_pg_work_per_delivery_and_its_breakdown() -> None:
    before = PgSnapshot({("hub", 1, True): Statement(10, 5.0)},
                        {"jobs": (100, 40, 5, 10), "events": (50, 0, 0, 0)}, wal_bytes=1_000)
    after = PgSnapshot({("hub", 1, True): Statement(410, 105.0, "UPDATE jobs"), ("hub", 2, True): Statement(2, 1.0)},
                       {"jobs": (300, 140, 25, 70), "events": (70, 0, 0, 0), "new": (0, 0, 0, 0)}, wal_bytes=201_000)
    work = pg_work(before, after)
    assert (work.statements, work.statement_ms, work.rows_written, work.row_versions, work.hot_updates,
            work.wal_bytes) == (402, 101.0, 340, 320, 60, 200_000)
    assert work.top_tables == [("jobs", 320), ("events", 20)]  # a table not written is not named
    assert work.top_statements[0] == ("UPDATE jobs", 400, 100.0)
    assert per_delivery(work, 200) == {"statements": 2.01, "statement ms": 0.505, "rows written": 1.7,
                                       "row versions": 1.6, "HOT updates": 0.3, "WAL bytes": 1000.0}


def test_pg_work_without_the_statements_view_or_deliveries() -> None:
    work = pg_work(PgSnapshot(None, wal_bytes=5), PgSnapshot(None, {"t": (4, 0, 0, 0)}, wal_bytes=9))
    assert work.statements is None and per_delivery(work, 2)["statements"] is None
    assert per_delivery(work, 2)["row versions"] == 2.0
    assert set(per_delivery(work, 0).values()) == {None} and set(per_delivery(None, 5).values()) == {None}
