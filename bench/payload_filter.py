"""Payload filter micro-benchmark (N53): ingest matching with 10 filtered subscriptions per event.

PURE IN-PROCESS MATCHING ONLY: no broker, no database. The events are the ingest bench's records
(``build_records`` in ``bench/_ingest_setup.py``, ~320 bytes of JSON data) decoded once by
``decode_parts``; each run then asks ``SubscriptionCache.select`` for every event, as the ingest
store's fan-out does. Two caches, measured in the same run, alternately: the baseline holds 10
unfiltered subscriptions of the tenant, the filtered one holds 10 subscriptions each with a
different payload filter (equality, ``$in``, ``$exists``, numeric, ``$prefix``, ``$and``/``$or``/``$not``
on nested data paths and attributes). The filtered path parses each event's attributes and data
and runs ten predicates; the baseline is one memo hit per event.

Each figure is the median events/s of ``--repeat`` runs (default 7) over ``--events`` events
(default 20,000). The target (issue 22) is ingest at >= 10,000 events/s with 10 filtered
subscriptions per event, so matching must cost well under 100 µs an event. Figures are wall-clock
on a shared machine: compare runs made back to back.

Run: ``python bench/payload_filter.py`` (``--help``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._ingest_setup import build_records  # noqa: E402
from hub.cloudevent.decode import Event, decode_parts  # noqa: E402
from hub.subscription.filter_check import check_filter  # noqa: E402
from workers.ingest.matching import SubscriptionCache, subscription_from_row  # noqa: E402

TENANT = "bench-filters"
FILTERS = [
    {"data.direction": "debit"},
    {"data.amount.currency": {"$in": ["BRL", "USD", "EUR"]}},
    {"data.metadata.channel": {"$prefix": "ap"}},
    {"data.amount.scale": {"$gte": 2, "$lt": 4}},
    {"data.metadata.ref": {"$exists": True}, "source": "ledger"},
    {"$or": [{"data.description": "fee"}, {"data.direction": "credit"}]},
    {"$not": {"data.status": "reversed"}},
    {"$and": [{"data.accountId": {"$prefix": "acc-00"}}, {"data.amount.scale": {"$gt": 0}}]},
    {"data.counterpartyId": {"$in": [f"acc-{n:06d}" for n in range(0, 5000, 25)]}},
    {"type": {"$prefix": "transaction."}, "data.metadata.channel": {"$in": ["app", "api"]}},
]


def _cache(filters: list[dict | None]) -> SubscriptionCache:
    cache = SubscriptionCache()
    cache.load([subscription_from_row((str(uuid.uuid4()), TENANT, None, "webhook", None, None, None, None,
                                       check_filter(document), None)) for document in filters], 1)
    return cache


def _events(count: int) -> list[Event]:
    events = []
    for record in build_records(count, [TENANT]):
        decoded = decode_parts(record.headers, record.key, record.value, max_bytes=1_048_576)
        assert isinstance(decoded, Event), decoded
        events.append(decoded)
    return events


def _run(cache: SubscriptionCache, events: list[Event]) -> tuple[float, int]:
    """Events/s of one pass, and the jobs it would write (so the work is not optimised away)."""
    select, jobs = cache.select, 0
    started = time.perf_counter()
    for event in events:
        jobs += len(select(event).push)
    return len(events) / (time.perf_counter() - started), jobs


def main() -> None:
    """Parse the options and print both caches' median events/s."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=20_000, help="events per run (default 20,000)")
    parser.add_argument("--repeat", type=int, default=7, help="runs per cache; the median is printed (default 7)")
    options = parser.parse_args()
    events = _events(options.events)
    caches = {"unfiltered (10 subs)": _cache([None] * 10), "filtered (10 subs)": _cache(FILTERS)}
    rates: dict[str, list[float]] = {name: [] for name in caches}
    jobs: dict[str, int] = {}
    for _ in range(options.repeat):
        for name, cache in caches.items():  # alternated, so machine noise hits both alike
            rate, jobs[name] = _run(cache, events)
            rates[name].append(rate)
    print(f"in-process matching only (SubscriptionCache.select), {options.events:,} events, "
          f"median of {options.repeat} runs")
    print("| subscriptions        | events/s   | µs/event | jobs/event |")
    print("|----------------------|------------|----------|------------|")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"| {name:<20} | {median:10,.0f} | {1e6 / median:8.2f} | {jobs[name] / options.events:10.2f} |")


if __name__ == "__main__":
    main()
