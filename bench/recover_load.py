"""Recover under load: live webhook latency with and without a 100,000-job recovery on the same workers.

A scratch database (created, migrated, dropped), real ``hub ingest``, ``hub deliver`` and ``hub api``
processes, and the deliver bench's nginx receiver. Four live tenants each have one webhook
subscription; a paced stream of ``--rate`` events/s (one delivery each) runs for ``--seconds``.
A fifth tenant's subscription, at the same receiver, holds ``--jobs`` dead-lettered jobs seeded by
SQL as the engine leaves them (one event each in ``event_log``, UUIDv7 job ids, one failed attempt).

Each round runs the stream twice, in turn: once alone (baseline) and once right after
``POST /v1/subscriptions/{id}/recover`` over those jobs (the recovery run). The seeded jobs stay
``dead_lettered`` (a recovery writes new jobs), so every recovery run re-delivers the same range.

Figures: live latency p50/p99, Kafka CreateTime of the event -> nginx's receipt of its delivery, per
run; the medians over ``--repeat`` rounds of each, with the ratio recovery/baseline; and the
recovery's own throughput: ``--jobs`` / (the last recovered job's delivered attempt - the POST); and each
round's p99 ratio (the machine is shared: a round's two runs are closer in time than two rounds). Each run
also prints its stage split (as bench/deliver.py does). No timing is asserted.

Run: ``python bench/recover_load.py`` (``--jobs 20000 --repeat 1`` for a short look).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._deliver_hub import (  # noqa: E402
    Session, _p50_p99, created_times, deliver_workers, format_stages, stage_split, wait_for, warm_up,
)
from bench._ingest_setup import Producer, Scratch  # noqa: E402
from bench._processes import ingest_workers  # noqa: E402
from bench._receiver import SECRET, Nginx, ensure_tools  # noqa: E402
from bench.delivery_log import UUID7_SQL, api_process  # noqa: E402
from hub.auth.tokens import mint_token  # noqa: E402

RECOVER_TENANT = "bench-recover"
SEED_PARTITION = 1000  # no bench topic has it: a seeded event never joins a produced record
# The jobs as the engine leaves a dead-lettered one: its event, the job row, one failed attempt.
SEED_SQL = [
    """INSERT INTO event_log (tenant_id, seq, source, ce_id, event_type, schema_version, schema_major, received_at,
                              event_time, attributes, data, kafka_topic, kafka_partition, kafka_offset)
       SELECT %(tenant)s, g, 'ledger', 'r-' || g, 'transaction.posted', '1.0.0', 1,
              now() - interval '2 hours' + make_interval(secs => g * %(secs)s),
              now() - interval '2 hours' + make_interval(secs => g * %(secs)s),
              '{"specversion": "1.0", "id": "r", "source": "ledger", "type": "transaction.posted"}',
              '{"amount": 1}', 'seeded', %(partition)s, g
         FROM generate_series(1, %(jobs)s) AS g""",
    f"""INSERT INTO delivery_jobs (id, tenant_id, subscription_id, event_seq, state, attempts, next_attempt_at,
                                  last_error_class, created_at, updated_at)
        SELECT {UUID7_SQL.format(at="now() - interval '2 hours' + make_interval(secs => g * %(secs)s)")},
               %(tenant)s, %(sub)s, g, 'dead_lettered', 1, now() + interval '1 day', 'http_5xx',
               now() - interval '2 hours' + make_interval(secs => g * %(secs)s),
               now() - interval '2 hours' + make_interval(secs => g * %(secs)s)
          FROM generate_series(1, %(jobs)s) AS g""",
    """INSERT INTO delivery_attempts (id, job_id, tenant_id, subscription_id, sink_kind, event_seq, attempt_no,
                                      outcome, status_code, error_class, detail, latency_ms, attempted_at)
       SELECT gen_random_uuid(), j.id, j.tenant_id, j.subscription_id, 'webhook', j.event_seq, 1,
              'dead_lettered', 503, 'http_5xx', '', 40, j.created_at + interval '1 second'
         FROM delivery_jobs AS j WHERE j.subscription_id = %(sub)s""",
]


def seed_failed(scratch: Scratch, nginx: Nginx, jobs: int) -> uuid.UUID:
    """The recovered tenant's webhook subscription (at nginx, signed) with ``jobs`` dead-lettered jobs."""
    from hub.secrets import seal
    from hub.subscription.service import secret_context

    started, sub = time.perf_counter(), uuid.uuid4()
    with psycopg.connect(scratch.dsn) as conn:
        conn.execute(
            "INSERT INTO subscriptions (id, tenant_id, name, sink_kind, endpoint, event_types, signature_version, "
            "plan_tier, enabled, verification_state, credential_kind, auto_disabled, disabled_reason, secret_current, "
            "secret_rotated_at, created_at, updated_at) VALUES (%s, %s, 'bench-recover', 'webhook', %s, "
            "'[\"transaction.posted\"]', 'v1', 'standard', true, 'active', 'signing_secret', false, '', %s, now(), "
            "now(), now())",
            (sub, RECOVER_TENANT, f"{nginx.url}{RECOVER_TENANT}",
             seal(SECRET, context=secret_context(sub, "secret_current"))))
        params = {"tenant": RECOVER_TENANT, "sub": sub, "jobs": jobs, "secs": 3600 / jobs,
                  "partition": SEED_PARTITION}
        for statement in SEED_SQL:
            conn.execute(statement, params)
        conn.execute("UPDATE subscription_versions SET version = version + 1")
    with psycopg.connect(scratch.dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE event_log, delivery_jobs, delivery_attempts")
    print(f"seeded {jobs:,} dead-lettered jobs in {time.perf_counter() - started:.1f} s", flush=True)
    return sub


def recover(base: str, sub: uuid.UUID) -> float:
    """POST the recovery of every failed job of ``sub``; returns when (epoch ms) it was accepted."""
    token = mint_token(tenant=RECOVER_TENANT, permissions=["subscriptions:post", "subscriptions:get"])
    since = (datetime.now(UTC) - timedelta(hours=3)).isoformat()
    answer = httpx.post(f"{base}/v1/subscriptions/{sub}/recover", json={"since": since}, timeout=60,
                        headers={"Authorization": f"Bearer {token}", "X-Idempotency": str(uuid.uuid4())})
    if answer.status_code != 202:
        raise RuntimeError(f"recover answered {answer.status_code}: {answer.text}")
    return time.time() * 1000


def recovered_done(dsn: str, sub: uuid.UUID, since_ms: float) -> tuple[int, float | None]:
    """How many of ``sub``'s jobs created after ``since_ms`` were delivered, and the last one's attempt (epoch ms)."""
    with psycopg.connect(dsn) as conn:
        count, last = conn.execute(
            "SELECT count(*), EXTRACT(EPOCH FROM max(a.attempted_at)) * 1000 FROM delivery_jobs j "
            "JOIN delivery_attempts a ON a.job_id = j.id AND a.outcome = 'delivered' "
            "WHERE j.subscription_id = %s AND j.created_at > to_timestamp(%s / 1000.0)",
            (sub, since_ms - 2000)).fetchone()
    return int(count), None if last is None else float(last)


def live_run(session: Session, procs: list, args: argparse.Namespace, seed: int) -> tuple[float, float]:
    """Produce the paced stream; returns its deliveries' latency p50/p99 (ms)."""
    nginx, producer = session.nginx, Producer()
    records = session.records(int(args.rate * args.seconds), seed=seed)
    tail = nginx.receipts(nginx.log_offset())
    producer.send(session.topic, records, rate=args.rate)
    created: dict[str, float] = {}

    def all_live() -> bool:
        tail.update()
        created.update(created_times(session.scratch.dsn, [w for w in tail.seen if w not in created], producer))
        return len(created) >= len(records)

    wait_for(all_live, "every live delivery", 600, procs)
    stages = stage_split(session.scratch.dsn, {wid: tail.seen[wid] for wid in created}, producer)
    print("    stages p50/p99 ms: " + format_stages(stages), flush=True)
    return _p50_p99([tail.seen[wid] - moment for wid, moment in created.items()])


def one_round(session: Session, procs: list, base: str, sub: uuid.UUID, args: argparse.Namespace,
              round_no: int) -> dict[str, float]:
    """A baseline run, then a run under recovery (waited to its end); this round's figures."""
    figures = dict(zip(("base_p50", "base_p99"), live_run(session, procs, args, seed=1000 + 2 * round_no)))
    print(f"  round {round_no + 1} baseline: p50 {figures['base_p50']:.0f} ms, p99 {figures['base_p99']:.0f} ms",
          flush=True)
    posted = recover(base, sub)
    figures.update(zip(("rec_p50", "rec_p99"), live_run(session, procs, args, seed=1001 + 2 * round_no)))
    done: list[float] = []

    def recovered() -> bool:
        count, last = recovered_done(session.scratch.dsn, sub, posted)
        done[:] = [last] if count >= args.jobs and last is not None else []
        return bool(done)

    wait_for(recovered, "the recovery's deliveries", 1800, procs)
    figures["rec_rate"] = args.jobs / ((done[0] - posted) / 1000)
    print(f"  round {round_no + 1} recovery: p50 {figures['rec_p50']:.0f} ms, p99 {figures['rec_p99']:.0f} ms; "
          f"{args.jobs:,} recovered at {figures['rec_rate']:,.0f} jobs/s", flush=True)
    return figures


def report(rounds: list[dict[str, float]], args: argparse.Namespace) -> None:
    med = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    print(f"\nlive stream {args.rate:.0f} ev/s for {args.seconds:.0f} s, {args.workers} hub deliver, "
          f"recovery of {args.jobs:,} jobs; medians of {len(rounds)} round(s), latency in ms")
    print(f"{'run':28} {'p50':>8} {'p99':>8}")
    print(f"{'baseline (no recovery)':28} {med['base_p50']:8.0f} {med['base_p99']:8.0f}")
    print(f"{'during the recovery':28} {med['rec_p50']:8.0f} {med['rec_p99']:8.0f}")
    print(f"{'ratio recovery/baseline':28} {med['rec_p50'] / med['base_p50']:8.2f} {med['rec_p99'] / med['base_p99']:8.2f}")
    per_round = [f"{r['rec_p99'] / r['base_p99']:.2f}" for r in rounds]
    print(f"p99 ratio of each round (its recovery run / its baseline): {', '.join(per_round)}")
    print(f"recovery throughput: {med['rec_rate']:,.0f} jobs/s (POST -> last recovered job delivered)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=1, help="hub deliver processes (hub dev runs 1)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    ensure_tools()
    with Scratch() as scratch, Nginx() as nginx:
        session = Session(scratch, nginx, 1)  # empties the tables: before the seed
        sub = seed_failed(scratch, nginx, args.jobs)
        try:
            with api_process(scratch.url) as base, \
                    ingest_workers(scratch, session.prefix, session.group, 1) as ingest, \
                    deliver_workers(session.env, args.workers) as delivers:
                warm_up(session, ingest + delivers, 1)
                rounds = [one_round(session, ingest + delivers, base, sub, args, n) for n in range(args.repeat)]
        finally:
            session.close()
    report(rounds, args)


if __name__ == "__main__":
    main()
