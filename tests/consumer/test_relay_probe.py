"""``hub consumer-relay`` serves ``/metrics`` on ``HUB_INGEST_METRICS_PORT``: the listener the Helm chart's
probes ask (deploy/helm/streaming-hub, the consumer-relay Deployment)."""

from __future__ import annotations

import time
import uuid

import httpx

from devkit.pg import free_port
from devkit.processes import hub_process


def test_consumer_relay_answers_its_probe() -> None:
    port = free_port()
    env = {"HUB_INGEST_METRICS_HOST": "127.0.0.1", "HUB_INGEST_METRICS_PORT": str(port),
           "HUB_KAFKA_TOPIC_PREFIX": f"probe{uuid.uuid4().hex[:8]}.", "HUB_LOG_LEVEL": "WARNING"}
    with hub_process("consumer-relay", env) as process:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "consumer-relay exited"
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=2)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "no /metrics listener within 60 s"
                time.sleep(0.3)
        assert response.status_code == 200
        assert "python_info" in response.text or "process_" in response.text
