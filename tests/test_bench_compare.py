"""bench/compare.py reads the benches' own tables and compares sides the right way round (pure logic)."""

from __future__ import annotations

import statistics

from bench._compare_tables import BENCHES, compare_rows, read_figures, tables

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
