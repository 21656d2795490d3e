"""A batch span linked to a sampled producer context is sampled, whatever the ratio (N92, issue 50).

Ingest, the consumer relay and the DLQ observer start each batch as a root span linked to the events'
producers; the configured ratio sampler alone dropped 9 such batches in 10 of traces the producer kept."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, ParentBasedTraceIdRatio, TraceIdRatioBased

from hub import tracing

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def migrated_database() -> None:
    """Spans in memory: no database."""


def traceparent(sampled: bool) -> str:
    return f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-{'01' if sampled else '00'}"


def recorded(configured, links: list[str], parent: str | None = None) -> list:  # noqa: ANN001
    """The spans a provider with the hub's wrapping of CONFIGURED exports for one batch span."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider(sampler=tracing.LinkedSampler(configured))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    context = tracing.context_of(parent) if parent else None
    with provider.get_tracer("t").start_as_current_span("ingest batch", context=context,
                                                        links=tracing.links_of(links)):
        pass
    return list(exporter.get_finished_spans())


def test_a_root_linked_to_a_sampled_context_is_sampled():
    never = ParentBasedTraceIdRatio(0.0)  # the ratio alone keeps no root
    [span] = recorded(never, [traceparent(False), traceparent(True)])
    assert span.context.trace_flags.sampled and len(span.links) == 2


def test_a_root_linked_only_to_unsampled_contexts_follows_the_ratio():
    assert recorded(ParentBasedTraceIdRatio(0.0), [traceparent(False)]) == []
    assert recorded(ParentBasedTraceIdRatio(0.0), []) == []
    assert len(recorded(TraceIdRatioBased(1.0), [traceparent(False)])) == 1


def test_a_parents_decision_wins_over_the_links():
    assert recorded(ParentBasedTraceIdRatio(1.0), [traceparent(True)], parent=traceparent(False)) == []


def test_always_off_stays_off():
    assert recorded(ALWAYS_OFF, [traceparent(True)]) == []


PROBE = """
import json, sys
from opentelemetry import trace
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from hub import tracing
assert tracing.configure("ingest")
exporter = InMemorySpanExporter()
trace.get_tracer_provider().add_span_processor(SimpleSpanProcessor(exporter))
for link in sys.argv[1:]:
    with tracing.linked_span("ingest batch", lambda link=link: [link]):
        pass
print("RESULT", json.dumps({"sampler": trace.get_tracer_provider().sampler.get_description(),
                  "kept": [span.links[0].context.trace_id for span in exporter.get_finished_spans()]}))
"""


def test_the_configured_process_wraps_the_environments_sampler():
    """`hub.tracing.configure` as a process runs it: the SDK reads OTEL_TRACES_SAMPLER, the hub wraps it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "HUB_OTLP"))}
    env.update(OTEL_TRACES_EXPORTER="console", OTEL_TRACES_SAMPLER="parentbased_traceidratio",
               OTEL_TRACES_SAMPLER_ARG="0", PYTHONPATH=str(REPO))
    sampled, unsampled = traceparent(True), traceparent(False)
    done = subprocess.run([sys.executable, "-c", PROBE, sampled, unsampled], env=env, capture_output=True,
                          text=True, timeout=60, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    # The console exporter prints the spans too, when the process ends.
    [line] = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    found = json.loads(line.removeprefix("RESULT "))
    assert found["sampler"].startswith("LinkedSampler{ParentBased{root:TraceIdRatioBased{0.0}")
    assert found["kept"] == [int(sampled.split("-")[1], 16)]
