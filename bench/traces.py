"""The cost of tracing (N59, N71): webhook delivery with ``OTEL_EXPORTER_OTLP_ENDPOINT`` unset and set.

The delivery bench's own scenarios (``bench/deliver.py``: real ``hub ingest`` and ``hub deliver``
processes, nginx as the HTTPS receiver): deliveries/s on a backlog with 1 subscription per event, and
the Kafka → receipt p50/p99 at a steady rate. Each run is made once per mode, in a row: tracing off, on
with every trace kept, and on with the SDK's standard ratio sampler keeping 1 in 10 (the hub's default) and
1 in 100 (spans exported over OTLP/HTTP to a sink in this process that counts and discards them); the rounds
repeat ``--repeat`` times. The table shows medians and each mode's rate over tracing off; nginx's ``wrk``
ceiling is printed beside them. Wall-clock figures on a shared 2-core machine are noisy: read the runs.

Run: ``python bench/traces.py`` (``--quick``: shorter runs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._deliver_hub import latency, throughput  # noqa: E402
from bench._ingest_setup import Scratch  # noqa: E402
from bench._receiver import Nginx, ensure_tools, event_body, wrk_ceiling  # noqa: E402


class SpanSink:
    """An OTLP/HTTP endpoint that answers 200 to every export and counts the bytes it was sent."""

    def __init__(self) -> None:
        self.exports = 0
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers.get("content-length", 0)))
                sink.exports += 1
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


def measure(scratch: Scratch, nginx: Nginx, args: argparse.Namespace, endpoint: str,
            ratio: float = 1.0) -> tuple[float, float, float]:
    """(deliveries/s, p50 ms, p99 ms) with OTEL_EXPORTER_OTLP_ENDPOINT set to ENDPOINT ("" = tracing off)
    and the SDK's standard sampler keeping RATIO of the traces."""
    # The bench's hub processes take this process's environment.
    os.environ.update({"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_TRACES_SAMPLER": "parentbased_traceidratio",
                       "OTEL_TRACES_SAMPLER_ARG": str(ratio)})
    rate = throughput(scratch, nginx, 1, args.deliveries, args.deliver_workers).rate
    late = latency(scratch, nginx, args.rate, args.latency_seconds, args.deliver_workers)
    return rate or 0.0, late.p50 or 0.0, late.p99 or 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--deliveries", type=int, default=10_000)
    parser.add_argument("--deliver-workers", type=int, default=2)
    parser.add_argument("--rate", type=int, default=500)
    parser.add_argument("--latency-seconds", type=int, default=10)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.deliveries, args.latency_seconds = 1, 3_000, 5
    ensure_tools()
    sink = SpanSink()
    modes = {"off": ("", 1.0), "on": (sink.url, 1.0), "on, 1 in 10 sampled": (sink.url, 0.1),
             "on, 1 in 100 sampled": (sink.url, 0.01)}
    runs: dict[str, list[tuple[float, float, float]]] = {mode: [] for mode in modes}
    with Nginx() as nginx, Scratch() as scratch:
        ceiling = wrk_ceiling(nginx, event_body(), seconds=3, connections=64, threads=2)
        print(f"ceiling (wrk at nginx): {ceiling.rate:,.0f} req/s", flush=True)
        for run in range(1, args.repeat + 1):
            for mode, (endpoint, ratio) in modes.items():
                figures = measure(scratch, nginx, args, endpoint, ratio)
                runs[mode].append(figures)
                print(f"run {run}, tracing {mode}: {figures[0]:,.0f} deliveries/s, p50 {figures[1]:.1f} ms, "
                      f"p99 {figures[2]:.1f} ms (OTLP exports so far: {sink.exports})", flush=True)
    medians = {mode: [statistics.median(f[i] for f in found) for i in range(3)] for mode, found in runs.items()}
    off = medians["off"]
    print("\n| tracing | deliveries/s | p50 ms | p99 ms | rate / off |\n|---|---|---|---|---|")
    for mode, figures in medians.items():
        print(f"| {mode} | {figures[0]:,.0f} | {figures[1]:.1f} | {figures[2]:.1f} | {figures[0] / off[0]:.2f} |")

if __name__ == "__main__":
    main()
