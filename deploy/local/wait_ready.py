#!/usr/bin/env python3
"""Readiness probes for the local infrastructure stack (see deploy/local/stack.sh).

Usage:  wait_ready.py SERVICE [--timeout SECONDS] [--interval SECONDS] [--pid PID]

SERVICE is one of: kafka, postgres, rabbitmq, moto.

Each probe talks the service's real protocol (Kafka metadata request, SQL
``select 1``, AMQP connection + channel, SQS ``ListQueues``).  The probe is
retried until it succeeds or ``--timeout`` seconds have passed (0 = one
attempt).  If ``--pid`` is given and that process exits, waiting stops early.

Prints exactly one line and exits 0 (ready) or 1 (not ready).
Addresses come from the same HUB_* variables that stack.sh writes to
.local/env; the defaults match the stack's fixed ports.
Only packages from the project's virtualenv are used.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time


def _env(name: str, default: str) -> str:
    return os.environ.get(name) or default


def _listening(port: int) -> bool:
    """Whether a socket of this machine listens on PORT (True when /proc cannot tell)."""
    found = False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as fh:
                rows = fh.read().splitlines()[1:]
        except OSError:
            continue
        found = True
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:
                return True
    return not found


def _wait_for_listener(address: str) -> None:
    """Raise unless something listens on ADDRESS's port (``host:port`` or a URL).

    The stack's ports lie in Linux's ephemeral range: a client connecting before the service listens can be
    given that very port as its source and connect to itself, and the service then cannot bind it. So no
    connection is tried until something listens there."""
    from urllib.parse import urlsplit

    port = urlsplit(address if "://" in address else f"//{address}").port
    if port is not None and not _listening(port):
        raise RuntimeError(f"nothing listens on port {port} yet")


def check_kafka() -> str:
    from confluent_kafka.admin import AdminClient

    bootstrap = _env("HUB_KAFKA_BOOTSTRAP", "127.0.0.1:59092")
    _wait_for_listener(bootstrap.split(",")[0])
    quiet = logging.getLogger("wait_ready.rdkafka")
    quiet.addHandler(logging.NullHandler())
    quiet.propagate = False
    admin = AdminClient(
        {
            "bootstrap.servers": bootstrap,
            "socket.connection.setup.timeout.ms": 3000,
            "logger": quiet,
        }
    )
    md = admin.list_topics(timeout=5)
    if not md.brokers:
        raise RuntimeError("metadata response lists no brokers")
    return (
        f"kafka: ready at {bootstrap} (cluster {md.cluster_id}, "
        f"{len(md.brokers)} broker(s), {len(md.topics)} topic(s))"
    )


def check_postgres() -> str:
    import psycopg

    url = _env("HUB_DATABASE_URL", "postgresql+psycopg://hub:hub@127.0.0.1:55432/hub")
    # SQLAlchemy-style driver suffix is not understood by libpq.
    dsn = url.replace("postgresql+psycopg://", "postgresql://", 1)
    _wait_for_listener(dsn)
    with psycopg.connect(dsn, connect_timeout=3) as conn:
        (one,) = conn.execute("select 1").fetchone()
        version = conn.info.parameter_status("server_version")
    if one != 1:
        raise RuntimeError(f"select 1 returned {one!r}")
    where = dsn.split("@", 1)[-1]
    return f"postgres: ready at {where} (server {version}, user hub)"


def check_rabbitmq() -> str:
    import pika

    logging.getLogger("pika").setLevel(logging.CRITICAL + 1)
    url = _env("HUB_RABBITMQ_URL", "amqp://hub:hub@127.0.0.1:55672/%2F")
    _wait_for_listener(url)
    params = pika.URLParameters(url)
    params.connection_attempts = 1
    params.socket_timeout = 3
    params.stack_timeout = 5
    params.blocked_connection_timeout = 5
    conn = pika.BlockingConnection(params)
    try:
        conn.channel().close()
        product = conn._impl.server_properties.get("version", b"?")
        if isinstance(product, bytes):
            product = product.decode(errors="replace")
    finally:
        conn.close()
    return f"rabbitmq: ready at {params.host}:{params.port} (server {product}, user hub)"


def check_moto() -> str:
    import boto3
    from botocore.config import Config

    endpoint = _env("HUB_AWS_ENDPOINT_URL", "http://127.0.0.1:55000")
    region = _env("HUB_AWS_REGION", "us-east-1")
    _wait_for_listener(endpoint)
    sqs = boto3.client(
        "sqs",
        endpoint_url=endpoint,
        region_name=region,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(connect_timeout=2, read_timeout=5, retries={"max_attempts": 1}),
    )
    queues = sqs.list_queues().get("QueueUrls", [])
    return f"moto: ready at {endpoint} (SQS list_queues ok, {len(queues)} queue(s))"


CHECKS = {
    "kafka": check_kafka,
    "postgres": check_postgres,
    "rabbitmq": check_rabbitmq,
    "moto": check_moto,
}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie still "exists" for kill(0); treat it as dead.
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("service", choices=sorted(CHECKS))
    ap.add_argument("--timeout", type=float, default=0.0)
    ap.add_argument("--interval", type=float, default=1.0)
    ap.add_argument("--pid", type=int, default=None)
    args = ap.parse_args(argv)

    check = CHECKS[args.service]
    deadline = time.monotonic() + args.timeout
    last: Exception | None = None
    while True:
        try:
            print(check(), flush=True)
            return 0
        except ImportError as exc:
            print(
                f"{args.service}: cannot probe, python package missing in the venv ({exc}); run `make install`",
                flush=True,
            )
            return 1
        except Exception as exc:  # noqa: BLE001 - any failure means "not ready yet"
            last = exc
        if args.pid is not None and not _alive(args.pid):
            print(
                f"{args.service}: process {args.pid} exited before it became ready "
                f"(last error: {type(last).__name__}: {last})",
                flush=True,
            )
            return 1
        if time.monotonic() >= deadline:
            print(
                f"{args.service}: NOT ready after {args.timeout:g}s "
                f"(last error: {type(last).__name__}: {last})",
                flush=True,
            )
            return 1
        time.sleep(args.interval)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
