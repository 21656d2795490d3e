"""``python -m chaos.receiverd HOST``: one of the run's webhook receivers in a process of its own.

At 200 events/s the four receivers answer about a thousand requests a second. In the runner's
process they shared one interpreter lock with the producer, the queue readers and the consumer
client, and a starved receiver answered past the hub's timeout, which fed retries back into the
load. Here each receiver has its own process; the runner talks to it through files in the run's
folder: the CA to issue its certificate from, a ``HOST.down`` flag that makes it reset every request,
and ``HOST.receipts``, one JSON line per request it answered 200 (or answered after the timeout):
``[webhook-id, partitionkey, CloudEvent id]``. The port it listens on is its first line of output.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import threading
from pathlib import Path
from typing import IO

import orjson
import trustme

from devkit.receiver import Received, Reply, https_receiver

# A request to the flaky receiver sleeps this long when it is "slow": past the subscription's timeout.
SLOW_SECONDS = 2.5


def receipt_line(item: Received) -> bytes:
    """The line noted for an answered request: its webhook-id and, when the body is an event, the
    event's partitionkey and id (else nulls)."""
    key = ce_id = None
    try:
        event = orjson.loads(item.body)
        key, ce_id = str(event.get("partitionkey")), str(event["id"])
    except (orjson.JSONDecodeError, KeyError, AttributeError, TypeError):
        pass
    return orjson.dumps([item.headers.get("webhook-id", ""), key, ce_id]) + b"\n"


class Script:
    """What the receiver answers. While the down flag exists it resets every request; a flaky one
    misbehaves at random (seeded): 5xx, connection resets, answers slower than the timeout, 429 with
    Retry-After."""

    def __init__(self, *, flaky: bool, rng: random.Random, down_flag: Path, log: IO[bytes]) -> None:
        self.flaky, self.rng, self.down_flag, self.log = flaky, rng, down_flag, log
        self.lock = threading.Lock()

    def __call__(self, item: Received) -> object:
        if self.down_flag.exists():
            return "reset"
        line = receipt_line(item)
        with self.lock:
            roll = self.rng.random() if self.flaky else 1.0
            if roll >= 0.2:
                # Answered 200, now or (slow) after the hub gave up: either way it was received.
                self.log.write(line)
                self.log.flush()
        if roll < 0.1:
            return Reply(500)
        if roll < 0.15:
            return "reset"
        if roll < 0.2:
            return Reply(429, {"Retry-After": "1"})
        if roll < 0.25:
            return ("sleep", SLOW_SECONDS)
        return Reply(200)


def serve(host: str, folder: Path, seed: int, flaky: bool) -> None:
    """Serve HOST until SIGTERM, printing the port first."""
    ca = trustme.CA.from_pem((folder / "ca.pem").read_bytes(), (folder / "ca.key").read_bytes())
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with (folder / f"{host}.receipts").open("ab") as log:
        script = Script(flaky=flaky, rng=random.Random(f"{seed}:{host}"), down_flag=folder / f"{host}.down", log=log)
        with https_receiver(ca, (host,), script, keep_requests=False) as state:
            print(state.port, flush=True)
            stop.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m chaos.receiverd", description=__doc__)
    parser.add_argument("host")
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--flaky", action="store_true")
    args = parser.parse_args(argv)
    serve(args.host, args.folder, args.seed, args.flaky)
    return 0


if __name__ == "__main__":
    sys.exit(main())
