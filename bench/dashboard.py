"""Dashboard read latency: ``GET /v1/dashboard`` and the needs-attention list over a month of history.

A scratch database (created, migrated, dropped) holds one tenant's 30 days: 1,000,000 events
(``event_log``, ~300-byte payloads, received evenly over the 30 days), 150,000 delivery jobs
(1,000 still pending), 200,000 delivery attempts (delivered 80 %, failed 15 %, dead-lettered 2 %,
disabled 1 %, poison 2 %), 100 subscriptions (80 webhook, 15 pull, 5 sqs; some auto-disabled,
unverified or manually disabled) and their health rows. It is bulk-loaded server-side
(``INSERT ... SELECT generate_series``), then ``VACUUM ANALYZE``d. A real ``hub api`` process
serves it on a loopback port.

Figures (each the median, and p90, of ``--requests`` timed requests after 2 warm-up requests):

* **route ms**: wall time of one HTTP request from this process to ``hub api`` (authentication,
  rate-limit check, the read, JSON), for ``GET /v1/dashboard`` with the default 24-hour period,
  a 48-hour period (``window_hours=48``: hourly buckets, pull eligibility at the ceiling) and a
  30-day period (``window_hours=720``: daily buckets, pull omitted), and for
  ``GET /v1/dashboard/subscriptions`` over 24 hours and 30 days.
* **bare SQL ms** (the ceiling): the statements the route runs (whole hours from the hourly
  rollups, the partial first and last hour from the raw tables), with the same parameters, back to
  back in one REPEATABLE READ transaction over a direct connection from this process, with no
  HTTP, authentication, rate limiting or Python post-processing. The route cannot be faster.
* **ratio**: route / bare SQL.
* **raw SQL ms**: the same figures counted from the raw tables alone (no count rollups), bare SQL.
* **baseline** (``--baseline-ref REF``, e.g. ``main`` before the rollups): the route figures of
  that commit's code (``git archive``), served by a second ``hub api`` on the same data; each
  request to it alternates with one to this tree's ``hub api`` (A, B, A, B), so both see the same
  machine load.
* **pull 24h, no rollup**: bare SQL of 24 hours of pull eligibility matched from the event log
  alone, which is what the route would cost without ingest's ``pull_eligibility_hourly``.

Wall-clock figures on a shared 2-core machine are noisy; the per-request samples are printed.

Run: ``python bench/dashboard.py --baseline-ref main`` (``--requests 15``; ``--events``/``--attempts``
to scale).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._ingest_setup import ROOT, Scratch  # noqa: E402
from bench._processes import wait_for_api  # noqa: E402
from hub.auth.tokens import mint_token  # noqa: E402
from hub.dashboard import queries  # noqa: E402
from hub.dashboard.queries import Scope  # noqa: E402
from hub.dashboard.period import Period, hour_parts  # noqa: E402
from hub.dashboard.service import FIGURES, bucket_edges, period_statements  # noqa: E402
from devkit.pg import free_port  # noqa: E402
from bench._dashboard_data import TENANT, load  # noqa: E402

@contextmanager
def source_tree(ref: str) -> Iterator[Path]:
    """The files of commit ``ref`` of this repository, unpacked into a temporary directory."""
    with tempfile.TemporaryDirectory(prefix="hub-baseline-") as folder:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        yield Path(folder)


@contextmanager
def api_process(url: str, root: Path = ROOT) -> Iterator[str]:
    """``hub api`` from the source tree at ``root`` (this one by default) on a loopback port."""
    port = free_port()
    env = {**os.environ, "HUB_DATABASE_URL": url, "HUB_API_PORT": str(port), "HUB_API_HOST": "127.0.0.1",
           "HUB_RATE_LIMIT_DASHBOARD": "1000000", "HUB_CATALOG_REFRESHER_ENABLED": "false",
           "HUB_LOG_LEVEL": "WARNING"}
    env["PYTHONPATH"] = str(root)  # ahead of this checkout's editable install
    process = subprocess.Popen([sys.executable, "-m", "hub.cli", "api"], cwd=root, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_api(base, seconds=60)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=15)


def timed(calls: list[Callable[[], object]], repeat: int) -> list[list[float]]:
    """Samples of each call, the calls alternating (A, B, A, B ...) after 2 warm-up rounds."""
    for _ in range(2):
        for call in calls:
            call()
    samples: list[list[float]] = [[] for _ in calls]
    for _ in range(repeat):
        for call, found in zip(calls, samples, strict=True):
            started = time.perf_counter()
            call()
            found.append((time.perf_counter() - started) * 1000)
    return samples


SCENARIOS = {
    "dashboard 24h": ("/v1/dashboard", {}, 24),
    "dashboard 48h": ("/v1/dashboard", {"window_hours": "48"}, 48),
    "dashboard 30d": ("/v1/dashboard", {"window_hours": "720"}, 720),
    "attention 24h": ("/v1/dashboard/subscriptions", {}, 24),
    "attention 30d": ("/v1/dashboard/subscriptions", {"window_hours": "720"}, 720),
}


def route_samples(bases: list[str], repeat: int) -> list[dict[str, list[float]]]:
    """Per ``hub api`` base URL, each scenario's samples; the servers take turns request by request."""
    token = mint_token(tenant=TENANT, permissions=["dashboard:get"])
    headers = {"Authorization": f"Bearer {token}"}
    results: list[dict[str, list[float]]] = [{} for _ in bases]
    clients = [httpx.Client(base_url=base, headers=headers, timeout=60) for base in bases]
    try:
        for name, (path, params, _) in SCENARIOS.items():
            def call(client: httpx.Client, path: str = path, params: dict = params) -> None:
                client.get(path, params=params).raise_for_status()
            calls = [lambda client=client: call(client) for client in clients]
            for found, samples in zip(results, timed(calls, repeat), strict=True):
                found[name] = samples
    finally:
        for client in clients:
            client.close()
    return results


def bare_statements(path: str, hours: int, now: datetime, *, rollups: bool = True) -> list[tuple[object, dict]]:
    """The statements the route runs for this period, with its parameters (``rollups=False``: the
    raw tables counted over the whole period instead)."""
    scope = Scope(TENANT)
    period = Period(now - timedelta(hours=hours), now)
    base = scope.params()
    parts = hour_parts(period) if rollups else [(False, period.start, period.end)]
    if path.endswith("subscriptions"):
        return [*((queries.attention_attempts_rollup(scope) if rolled else queries.attention_attempts(scope),
                   {**base, "start": start, "end": end}) for rolled, start, end in parts),
                (queries.attention_subscriptions(scope), base)]
    statements = [(queries.census(scope), base), (queries.backlog(scope), base)]
    if rollups:
        rolled = period_statements(scope, period, hours <= 48)
        return statements + [(statement, params) for _, statement, params in rolled]
    unit, _ = bucket_edges(period)
    window = {**base, "start": period.start, "end": period.end, "unit": unit}
    names = ("events", "jobs", "attempts", "pull") if hours <= 48 else ("events", "jobs", "attempts")
    return statements + [(FIGURES[name][0](scope), window) for name in names]


def bare_samples(url: str, repeat: int, *, rollups: bool = True) -> dict[str, list[float]]:
    engine = create_engine(url)
    results = {}
    for name, (path, _, hours) in SCENARIOS.items():
        def call(path=path, hours=hours) -> None:
            with engine.connect() as connection:
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
                with connection.begin():
                    now = connection.execute(text("SELECT now()")).scalar_one()
                    for statement, params in bare_statements(path, hours, now, rollups=rollups):
                        connection.execute(statement, params).all()
        results[name] = timed([call], repeat)[0]
    engine.dispose()
    return results


def raw_pull_samples(url: str, repeat: int) -> list[float]:
    """24 h of pull eligibility matched from the event log alone, without ingest's hourly rollup."""
    engine = create_engine(url)

    def call() -> None:
        with engine.connect() as connection:
            now = connection.execute(text("SELECT now()")).scalar_one()
            params = {**Scope(TENANT).params(), "start": now - timedelta(hours=24), "end": now, "unit": "hour"}
            connection.execute(queries.pull_eligibility(Scope(TENANT)), params).all()

    samples = timed([call], repeat)[0]
    engine.dispose()
    return samples


def p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--attempts", type=int, default=200_000)
    parser.add_argument("--jobs", type=int, default=150_000)
    parser.add_argument("--requests", type=int, default=15)
    parser.add_argument("--baseline-ref", default="", help="also time this commit's hub api, interleaved")
    args = parser.parse_args()
    with Scratch() as scratch:
        seconds = load(scratch.dsn, events=args.events, attempts=args.attempts, jobs=args.jobs)
        print(f"loaded {args.events:,} events, {args.jobs:,} jobs, {args.attempts:,} attempts in {seconds:.0f} s")
        with api_process(scratch.url) as base:
            if args.baseline_ref:
                with source_tree(args.baseline_ref) as tree, api_process(scratch.url, tree) as old:
                    routes, baseline = route_samples([base, old], args.requests)
            else:
                (routes,), baseline = route_samples([base], args.requests), {}
        bare = bare_samples(scratch.url, args.requests)
        raw = bare_samples(scratch.url, args.requests, rollups=False)
        raw_pull = raw_pull_samples(scratch.url, args.requests)
    report(routes, bare, raw, baseline, raw_pull, args.baseline_ref)


def report(routes: dict, bare: dict, raw: dict, baseline: dict, raw_pull: list[float], ref: str) -> None:
    print("\nsamples (ms):")
    for name in SCENARIOS:
        print(f"  {name:14} route {[round(s) for s in routes[name]]}\n  {'':14} bare  {[round(s) for s in bare[name]]}")
        if baseline:
            print(f"  {'':14} {ref:5.5} {[round(s) for s in baseline[name]]}")
    head = f"{ref} route p50" if ref else ""
    print(f"\n{'scenario':16}{'route p50':>10}{'p90':>8}{'bare p50':>10}{'ratio':>7}{'raw SQL p50':>13}{head:>18}")
    for name in SCENARIOS:
        route50, bare50 = statistics.median(routes[name]), statistics.median(bare[name])
        old = f"{statistics.median(baseline[name]):>18.1f}" if baseline else ""
        print(f"{name:16}{route50:>10.1f}{p(routes[name], 0.9):>8.1f}{bare50:>10.1f}{route50 / bare50:>7.2f}"
              f"{statistics.median(raw[name]):>13.1f}{old}")
    print(f"{'pull 24h, no rollup (bare SQL)':46}{statistics.median(raw_pull):>10.1f}")
    print(f"\nrun at {datetime.now(UTC).isoformat(timespec='seconds')}; target: route p50 <= 300 ms")


if __name__ == "__main__":
    main()
