"""Interleaved A/B of the hot-path benches: the working tree against a commit (``make bench-compare REF=…``).

**Sides.** ``work`` is this checkout (its working tree and ``.venv``). ``ref`` is REF, checked out in a clone
of its own under ``.local/compare/<commit>`` with a virtualenv of its own (made once, kept for the next
run). Each bench run makes its own scratch database, topics and hub processes, so the sides share only the
stack (Kafka, PostgreSQL, RabbitMQ) and the machine.

**Benches** (each side runs its own copy of the script, so REF is measured by REF's harness):

* ``bench/sustained.py``: 1 and 10 subscriptions per event at one rate past this machine's capacity
  (``--rate``): delivered/s, p50/p99 produce → receipt, ms of CPU per delivery in ``hub deliver`` and
  ``hub ingest``;
* ``bench/ingest.py --modes drain``: events/s stored with 1 and 10 jobs per event;
* ``bench/publish.py --only rest-single,grpc``: events/s stored, call p99 and CPU µs per event.

**Interleaving.** ``--rounds`` rounds; in each, every bench runs on both sides back to back, the side that
goes first alternating (ref, work, work, ref, …), so a slow minute of the shared machine lands on both.
The table gives each figure's median per side and the ratio work / REF, marking a figure that is more
than 5 % worse in the direction that matters. Logs of every run: ``.local/compare/logs``.
Run: ``make bench-compare REF=<commit>`` (``python bench/compare.py --help``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._compare_tables import BENCHES, Bench, Figures, compare_rows, read_figures  # noqa: E402

WORKDIR = ROOT / ".local" / "compare"


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def ref_checkout(ref: str) -> Path:
    """A clone of REF with its own virtualenv, made once and reused (its commit names the folder)."""
    commit = git("rev-parse", "--verify", f"{ref}^{{commit}}")
    folder = WORKDIR / commit[:12]
    if not (folder / ".git").exists():
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(folder)], check=True)
        subprocess.run(["git", "checkout", "-q", commit], cwd=folder, check=True)
    if not (folder / ".venv" / ".installed").exists():
        print(f"compare: installing {commit[:12]}'s virtualenv (once)", flush=True)
        subprocess.run(["make", "-s", "install"], cwd=folder, check=True, stdout=subprocess.DEVNULL)
    return folder


def run_bench(side: str, checkout: Path, bench: Bench, args: argparse.Namespace, round_no: int) -> Figures:
    """One bench on one side; its printed tables read into figures (empty when it failed)."""
    argv = [str(checkout / ".venv" / "bin" / "python"), *bench.argv(args)]
    log = WORKDIR / "logs" / f"{time.strftime('%Y%m%dT%H%M%S')}-{bench.name}-{side}-r{round_no}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    started = time.monotonic()
    with log.open("w") as sink:
        result = subprocess.run(argv, cwd=checkout, env=env, stdout=sink, stderr=subprocess.STDOUT,
                                timeout=bench.timeout_seconds, check=False)
    figures = read_figures(bench, log.read_text())
    # A bench that printed its tables and then failed in its cleanup still measured: keep its figures.
    state = "ok" if result.returncode == 0 else f"exit {result.returncode} after its tables, see {log}"
    if not figures:
        state = f"FAILED (exit {result.returncode}, no figures; see {log})"
    print(f"  round {round_no}: {bench.name:<10} {side:<4} {time.monotonic() - started:6.0f} s  {state}", flush=True)
    return figures


def measure(sides: dict[str, Path], benches: list[Bench], args: argparse.Namespace) -> dict[str, list[Figures]]:
    """Every bench on both sides, ``args.rounds`` times, the first side alternating."""
    runs: dict[str, list[Figures]] = {f"{bench.name}/{side}": [] for bench in benches for side in sides}
    order = list(sides)
    for round_no in range(1, args.rounds + 1):
        for bench in benches:
            for side in order:
                runs[f"{bench.name}/{side}"].append(run_bench(side, sides[side], bench, args, round_no))
            order.reverse()
    return runs


def print_table(runs: dict[str, list[Figures]], benches: list[Bench], ref_name: str) -> int:
    """The comparison table; returns how many figures regressed by more than 5 %."""
    print(f"\nmedians of each side's runs; ratio = work / {ref_name}; 'worse' marks > 5 % the wrong way")
    print(f"| bench | row | figure | {ref_name} | work | ratio | |\n|---|---|---|---:|---:|---:|---|")
    worse = 0
    for bench in benches:
        for row in compare_rows(bench, runs[f"{bench.name}/ref"], runs[f"{bench.name}/work"], statistics.median):
            worse += row.worse
            print(f"| {bench.name} | {row.key} | {row.metric} | {row.ref:,.2f} | {row.work:,.2f} | "
                  f"{row.ratio:.2f} | {'worse' if row.worse else ''} |")
    return worse


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--ref", required=True, help="the commit to compare against (e.g. the main you started from)")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (default 2)")
    parser.add_argument("--benches", default=",".join(b.name for b in BENCHES),
                        help="which benches, comma-separated (default: all)")
    parser.add_argument("--rate", type=int, default=6_000, help="offered deliveries/s of the sustained runs, "
                        "past this machine's capacity (default 6,000)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load per sustained run")
    parser.add_argument("--events", type=int, default=20_000, help="events per ingest drain / gRPC publish run")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    chosen = [bench for bench in BENCHES if bench.name in args.benches.split(",")]
    sides = {"ref": ref_checkout(args.ref), "work": ROOT}
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    print(f"bench-compare: work = {git('rev-parse', '--short', 'HEAD')}{dirty}, ref = {args.ref} "
          f"({git('rev-parse', '--short', args.ref)}), {args.rounds} interleaved round(s)", flush=True)
    runs = measure(sides, chosen, args)
    print_table(runs, chosen, args.ref)
    return 0


if __name__ == "__main__":
    sys.exit(main())
