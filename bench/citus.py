"""Delivery on Citus beside plain PostgreSQL (issue 52, N109): real ``hub deliver`` processes draining one backlog.

**Databases.** *Citus*: a fresh database on the local Citus cluster's coordinator (``deploy/local/citus-stack.sh
database hub_citus_bench --fresh``; ``HUB_CITUS_PORT``, default 55442), migrated (tables distributed by tenant,
migration 0025). *Plain*: a database without the citus extension on the same coordinator server
(``hub migrate --create-database``), so both runs share one server's settings and the machine. Skipped (exit 0)
when no coordinator answers.

**Run.** ``--tenants`` tenants (spread over the shards by their hash), each with ``--subs`` webhook subscriptions
at one nginx (bench/_receiver.py) and ``--events`` events: ``tenants × subs × events`` due jobs, written with COPY
before ``--processes`` ``hub deliver`` processes start. deliveries/s = (distinct webhook-ids received − 1) /
(last receipt − first receipt), as bench/deliver.py counts them. Every ``HUB_*`` setting passes through.

Run: ``python bench/citus.py`` (``--help``). Noisy on a shared 2-core machine: compare runs made back to back.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._processes import worker_processes  # noqa: E402
from bench._receiver import SECRET, Nginx, ensure_tools  # noqa: E402
from hub.secrets import seal  # noqa: E402
from hub.subscription.service import secret_context  # noqa: E402

PORT = os.environ.get("HUB_CITUS_PORT", "55442")
COORDINATOR = f"postgresql://hub:hub@127.0.0.1:{PORT}"


def _hub(env: dict[str, str], *args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "hub.cli", *args], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=600, check=False)
    if done.returncode:
        raise SystemExit(f"hub {' '.join(args)}: {done.stderr[-2000:]}")


def fresh_databases() -> dict[str, str]:
    """The two databases, made anew and migrated: {"plain": url, "citus": url}."""
    made = subprocess.run(["bash", "deploy/local/citus-stack.sh", "database", "hub_citus_bench", "--fresh"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)
    if made.returncode:
        raise SystemExit(f"citus-stack.sh database: {made.stdout[-1000:]}{made.stderr[-1000:]}")
    with psycopg.connect(f"{COORDINATOR}/hub", autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS hub_plain_bench WITH (FORCE)")
    urls = {"plain": f"{COORDINATOR}/hub_plain_bench", "citus": f"{COORDINATOR}/hub_citus_bench"}
    for url in urls.values():
        _hub({"HUB_DATABASE_URL": url.replace("postgresql://", "postgresql+psycopg://", 1)}, "migrate",
             "--create-database")
    return urls


def seed(url: str, nginx: Nginx, args: argparse.Namespace) -> int:
    """The subscriptions, events and due jobs of the run; returns how many jobs."""
    now, jobs = datetime.now(UTC), 0
    with psycopg.connect(url) as conn, conn.cursor() as cursor:
        for t in range(args.tenants):
            tenant = f"bench-{t:03d}"
            subs = [uuid.uuid4() for _ in range(args.subs)]
            for i, sub in enumerate(subs):
                cursor.execute(
                    "INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, signature_version, plan_tier, "
                    "enabled, verification_state, credential_kind, auto_disabled, disabled_reason, secret_current, "
                    "created_at, updated_at) VALUES (%s, %s, %s, 'webhook', %s, 'v1', 'standard', true, 'active', "
                    "'signing_secret', false, '', %s, %s, %s)",
                    (sub, tenant, f"bench-{i}", f"{nginx.url}{tenant}/{i}",
                     seal(SECRET, context=secret_context(sub, "secret_current")), now, now))
            cursor.execute("INSERT INTO tenant_counters (tenant_id, last_seq) VALUES (%s, %s)", (tenant, args.events))
            with cursor.copy("COPY event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major, "
                             "received_at, attributes, data, kafka_topic, kafka_partition, kafka_offset) FROM STDIN") as copy:
                for seq in range(1, args.events + 1):
                    attributes = {"specversion": "1.0", "id": f"e-{seq}", "source": "ledger", "type": "transaction.posted",
                                  "tenantid": tenant, "datacontenttype": "application/json"}
                    copy.write_row((tenant, seq, "ledger", f"e-{seq}", "transaction.posted", "1.0.0", 1, now,
                                    json.dumps(attributes), json.dumps({"n": seq}), "t", 0, seq))
            with cursor.copy("COPY delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, "
                             "next_attempt_at, last_error_class, created_at, updated_at) FROM STDIN") as copy:
                for seq in range(1, args.events + 1):
                    for sub in subs:
                        copy.write_row((uuid.uuid4(), tenant, sub, seq, "pending", 0, now, "", now, now))
                        jobs += 1
        cursor.execute("INSERT INTO subscription_versions (id, version) VALUES (1, 1) "
                       "ON CONFLICT (id) DO UPDATE SET version = subscription_versions.version + 1")
    return jobs


def drain(url: str, nginx: Nginx, jobs: int, args: argparse.Namespace) -> float:
    """Run the ``hub deliver`` processes until every job is received; deliveries/s."""
    env = {**os.environ, "HUB_DATABASE_URL": url.replace("postgresql://", "postgresql+psycopg://", 1),
           "HUB_EGRESS_ALLOW_CIDRS": "127.0.0.0/8", "HUB_WEBHOOK_CA_BUNDLE": str(nginx.ca_path),
           "HUB_DELIVER_METRICS_PORT": "0", "HUB_LOG_LEVEL": "WARNING"}
    receipts = nginx.receipts(nginx.log_offset())
    deadline = time.monotonic() + args.timeout
    with worker_processes([[sys.executable, "-m", "workers.cli", "deliver"]] * args.processes, env) as procs:
        while receipts.update() < jobs:
            if time.monotonic() > deadline or any(proc.poll() is not None for proc in procs):
                raise RuntimeError(f"{receipts.update()} of {jobs} delivered when the run ended")
            time.sleep(0.2)
    times = sorted(receipts.seen.values())
    return (len(times) - 1) / ((times[-1] - times[0]) / 1000)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tenants", type=int, default=16)
    parser.add_argument("--subs", type=int, default=2, help="webhook subscriptions a tenant")
    parser.add_argument("--events", type=int, default=500, help="events a tenant")
    parser.add_argument("--processes", type=int, default=1, help="hub deliver processes")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args(argv)
    try:
        psycopg.connect(f"{COORDINATOR}/hub", connect_timeout=3).close()
    except psycopg.OperationalError:
        print(f"bench/citus.py: skipped, no Citus coordinator on 127.0.0.1:{PORT} (make stack DB=citus)")
        return 0
    ensure_tools()
    figures: dict[str, list[float]] = {"plain": [], "citus": []}
    with Nginx() as nginx:
        for run in range(1, args.repeat + 1):
            for name, url in fresh_databases().items():
                jobs = seed(url, nginx, args)
                rate = drain(url, nginx, jobs, args)
                figures[name].append(rate)
                print(f"run {run} {name:5}: {jobs} jobs, {rate:,.0f} deliveries/s", flush=True)
    best = {name: statistics.median(rates) for name, rates in figures.items()}
    print(f"median deliveries/s: plain {best['plain']:,.0f}, citus {best['citus']:,.0f} "
          f"({best['citus'] / best['plain']:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
