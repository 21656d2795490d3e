"""Decoder micro-benchmark: µs per record for ``decode_parts``, binary and structured mode.

The records are the ingest bench's (``build_records`` in ``bench/_ingest_setup.py``: ``ce_*``
headers, ``content-type: application/json``, the account id as key, ~320 bytes of JSON data); the
structured-mode records carry the same attributes and data in one
``application/cloudevents+json`` envelope. Pure CPU: no broker, no database.

Each figure is the median of ``--repeat`` runs (default 5) over ``--records`` records (default
20,000); one run decodes every record once. The baseline is the ``cloudevents`` library's own
Kafka binding (``from_kafka``) reading the same records, which the decoder is proven to agree with
(tests/ingest/test_decode.py); the ratio column is baseline time / decoder time. Figures are wall-clock on a shared machine, so they
are noisy: compare runs made back to back.

Run: ``python bench/decode.py`` (``--help``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from bench._ingest_setup import build_records  # noqa: E402
from cloudevents.core.bindings.kafka import KafkaMessage, from_kafka  # noqa: E402
from cloudevents.core.formats.json import JSONFormat  # noqa: E402

from hub.cloudevent.decode import Event, decode_parts  # noqa: E402

LIMIT = 1_048_576
Parts = tuple[list[tuple[str, bytes]], bytes, bytes]


def binary_parts(n: int) -> list[Parts]:
    """N binary-mode records as (headers, key, value)."""
    return [(record.headers, record.key, record.value) for record in build_records(n, ["tenant-a", "tenant-b"])]


def structured_parts(binary: list[Parts]) -> list[Parts]:
    """The same events in structured mode: one JSON envelope, the key kept."""
    parts = []
    for headers, key, value in binary:
        envelope = {name[3:]: raw.decode() for name, raw in headers if name.startswith("ce_")}
        envelope["datacontenttype"] = "application/json"
        envelope["data"] = orjson.loads(value)
        parts.append(([("content-type", b"application/cloudevents+json")], key, orjson.dumps(envelope)))
    return parts


def run(parts: list[Parts]) -> float:
    """Decode every record once; return the seconds taken."""
    start = time.perf_counter()
    for headers, key, value in parts:
        decode_parts(headers, key, value, max_bytes=LIMIT)
    return time.perf_counter() - start


def run_library(messages: list[KafkaMessage]) -> float:
    """The baseline: the cloudevents library decodes every record once; return the seconds taken."""
    event_format = JSONFormat()
    start = time.perf_counter()
    for message in messages:
        from_kafka(message, event_format)
    return time.perf_counter() - start


def measure(name: str, parts: list[Parts], repeat: int) -> None:
    """Print the median µs per record of REPEAT runs, the library's, and their ratio."""
    assert all(isinstance(decode_parts(*p, max_bytes=LIMIT), Event) for p in parts[:100]), name
    messages = [KafkaMessage(dict(headers), key, value) for headers, key, value in parts]
    run(parts)  # warm-up: caches, allocator
    run_library(messages)
    ours = statistics.median(run(parts) for _ in range(repeat)) / len(parts) * 1e6
    library = statistics.median(run_library(messages) for _ in range(repeat)) / len(parts) * 1e6
    print(f"| {name:<10} | {ours:9.2f} | {library:11.2f} | {library / ours:8.1f} |")


def main() -> None:
    """Parse the options and print both modes' figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000, help="records per run (default 20,000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per mode; the median is printed (default 5)")
    options = parser.parse_args()
    binary = binary_parts(options.records)
    print(f"decode_parts vs the cloudevents library, {options.records:,} records, median of {options.repeat} runs")
    print("| mode       | µs/record | library µs  | × faster |")
    print("|------------|-----------|-------------|----------|")
    measure("binary", binary, options.repeat)
    measure("structured", structured_parts(binary), options.repeat)


if __name__ == "__main__":
    main()
