"""What bench/compare.py reads from each bench's output: its markdown tables, as figures by row and column.

Every bench prints its result as a markdown table (``| a | b |`` lines, a header, a ``|---|`` rule, rows).
A figure is a number in a named column of a row, the row named by its key columns. A cell such as
``api 553, grpc 12, ingest 40`` (CPU by process) gives one figure per part: ``CPU µs/event api`` …
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from dataclasses import dataclass, field

HIGHER, LOWER = "higher", "lower"  # which way a figure is better
WORSE_BY = 0.05  # a ratio this far the wrong way is marked

Figures = dict[tuple[str, str], float]  # (row key, figure name) -> value
NUMBER = re.compile(r"^-?[\d,]*\.?\d+$")
PARTS = re.compile(r"([A-Za-z][\w-]*)\s+(-?[\d,]*\.?\d+)")


@dataclass(frozen=True)
class Bench:
    """One bench as compare runs it: its command line, which columns name a row, which are figures."""

    name: str
    script: str
    options: Callable[[argparse.Namespace], list[str]]
    keys: tuple[str, ...]
    metrics: dict[str, str] = field(default_factory=dict)  # column -> HIGHER or LOWER
    rows: tuple[str, ...] = ()  # keep only rows whose key starts with one of these (all when empty)
    timeout_seconds: float = 1_800

    def argv(self, args: argparse.Namespace) -> list[str]:
        return [self.script, *self.options(args)]


def tables(text: str) -> list[list[list[str]]]:
    """Each markdown table in TEXT as rows of cells, header first, the ``|---|`` rule left out."""
    found: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        line = line.strip()
        if line.startswith("|") and line.endswith("|"):
            cells = [cell.strip() for cell in line[1:-1].split("|")]
            if not all(set(cell) <= set("-: ") for cell in cells):
                current.append(cells)
        elif current:
            found.append(current)
            current = []
    return found


def number(cell: str) -> float | None:
    cell = cell.strip()
    return float(cell.replace(",", "")) if NUMBER.match(cell) else None


def _cell_figures(column: str, cell: str) -> dict[str, float]:
    """A cell's figures: itself when a number, else each ``name value`` part as ``column name``."""
    value = number(cell)
    if value is not None:
        return {column: value}
    return {f"{column} {part}": float(text.replace(",", "")) for part, text in PARTS.findall(cell)}


def read_figures(bench: Bench, text: str) -> Figures:
    """The figures of BENCH's tables in TEXT (the tables that have all of its key columns)."""
    figures: Figures = {}
    for table in tables(text):
        header, *rows = table
        if not set(bench.keys) <= set(header):
            continue
        for row in rows:
            cells = dict(zip(header, row, strict=False))
            key = " / ".join(cells.get(name, "") for name in bench.keys)
            if bench.rows and not key.startswith(bench.rows):
                continue
            for column in bench.metrics:
                for name, value in _cell_figures(column, cells.get(column, "")).items():
                    figures[(key, name)] = value
    return figures


@dataclass(frozen=True)
class Compared:
    key: str
    metric: str
    ref: float
    work: float
    ratio: float
    worse: bool


def direction(bench: Bench, metric: str) -> str:
    column = next((c for c in bench.metrics if metric == c or metric.startswith(f"{c} ")), metric)
    return bench.metrics.get(column, HIGHER)


def compare_rows(bench: Bench, ref_runs: list[Figures], work_runs: list[Figures],
                 middle: Callable[[list[float]], float]) -> list[Compared]:
    """Each figure both sides reported: the middle of each side's runs, the ratio work / ref, worse or not."""
    names = [name for run in ref_runs for name in run]
    rows: list[Compared] = []
    for name in dict.fromkeys(names):
        ref = [run[name] for run in ref_runs if name in run]
        work = [run[name] for run in work_runs if name in run]
        if not ref or not work or middle(ref) == 0:
            continue
        ratio = middle(work) / middle(ref)
        worse = ratio < 1 - WORSE_BY if direction(bench, name[1]) == HIGHER else ratio > 1 + WORSE_BY
        rows.append(Compared(name[0], name[1], middle(ref), middle(work), ratio, worse))
    return rows


# What one delivery costs (issue 51): CPU by process group, then PostgreSQL's work (bench/_pg_costs.py).
SUSTAINED_COSTS = ("deliver ms CPU/delivery", "ingest ms CPU/delivery", "postgres ms CPU/delivery",
                   "kafka ms CPU/delivery", "statements/delivery", "statement ms/delivery", "rows written/delivery",
                   "row versions/delivery", "HOT updates/delivery", "WAL bytes/delivery")


def _sustained(args: argparse.Namespace) -> list[str]:
    return ["--repeat", "1", "--subs", "1,10", "--rates", str(args.rate), "--duration", str(args.duration),
            "--window-start", "8", "--window-end", str(args.duration - 2), "--drain-deliveries", "0",
            "--kafka-events", "20000"]


def _ingest(args: argparse.Namespace) -> list[str]:
    return ["--modes", "drain", "--repeat", "1", "--subs", "1,10", "--events", str(args.events)]


def _publish(args: argparse.Namespace) -> list[str]:
    return ["--only", "rest-single,grpc", "--seconds", "6", "--events", str(args.events)]


BENCHES = [
    Bench("sustained", "bench/sustained.py", _sustained, ("subs/event", "offered/s"),
          {"delivered/s": HIGHER, "p50 ms": LOWER, "p99 ms": LOWER,
           **dict.fromkeys(SUSTAINED_COSTS, LOWER)}),
    Bench("ingest", "bench/ingest.py", _ingest, ("scenario",), {"median ev/s": HIGHER}),
    Bench("publish", "bench/publish.py", _publish, ("scenario",),
          {"ev/s stored": HIGHER, "call p99 ms": LOWER, "CPU µs/event": LOWER}),
]
