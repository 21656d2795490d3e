"""``python -m chaos``: one chaos run; exits 1 when the ledger does not balance."""

from __future__ import annotations

import argparse
import dataclasses
import random
import signal
import sys
import time

from chaos.run import full_plan, run, short_plan


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m chaos", description=__doc__)
    parser.add_argument("--seed", type=int, help="replay the schedule of this seed (default: a fresh one)")
    parser.add_argument("--faults", type=int, help="how many faults (default 30, or 5 with --short)")
    parser.add_argument("--short", action="store_true", help="the five-fault form `make test` runs")
    parser.add_argument("--rate", type=float, help="events produced per second (default 10, or 25 with --short)")
    parser.add_argument("--drain", type=float, help="longest drain, in seconds (default 600, or 75 with --short)")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)  # so a stopped run still stops what it started
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    rate = {"rate": args.rate} if args.rate else {}
    plan = short_plan(seed, args.faults or 5, **rate) if args.short else full_plan(seed, args.faults or 30, **rate)
    if args.drain:
        plan = dataclasses.replace(plan, drain_seconds=args.drain)
    started = time.monotonic()
    ledger = run(plan)
    print(f"chaos: seed {seed}, {time.monotonic() - started:.0f} s", flush=True)
    return 0 if ledger.balanced else 1


if __name__ == "__main__":
    sys.exit(main())
