"""The unauthenticated operational routes (R-getLiveness-*, R-getReadiness-*, R-getVersion-*, ...)."""

from __future__ import annotations

import re
import subprocess
import sys
import threading

import httpx
import pytest

from devkit.live import live_api
from devkit.pg import ScratchPostgres


def test_liveness_is_ok_without_auth(client):
    """R-getLiveness-01..03, R-X-PROBE-01: exactly {"status": "ok"} with no Authorization header."""
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_readiness_healthy_with_probes(client):
    """R-getReadiness-01..04, N8: healthy → 200 application/json with database and kafka probes."""
    response = client.get("/readyz")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["state"] == "healthy"
    names = {probe["name"]: probe["state"] for probe in body["probes"]}
    assert names["database"] == "healthy" and names["kafka"] == "healthy"


def test_version_identity(client):
    """R-getVersion-01..02: {version, commit, buildDate}, strings, nothing else."""
    body = client.get("/version").json()
    assert set(body) == {"version", "commit", "buildDate"}
    assert all(isinstance(value, str) and value for value in body.values())


def test_runtime_is_python_facts(client):
    """R-getRuntime-02..03, N9: honest Python facts, no tenant data."""
    body = client.get("/runtime").json()
    assert set(body) == {"pythonVersion", "threads", "gcCollections", "rssBytes", "numCPU"}
    assert body["pythonVersion"].startswith("3.") and body["threads"] >= 1 and body["rssBytes"] > 0


def test_metrics_text_with_build_info(client):
    """R-getMetrics-01, N10: Prometheus text with the build-info gauge and real series."""
    response = client.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    assert "streaming_hub_build_info{" in response.text
    assert "streaming_hub_api_request_seconds" in response.text
    series = [line for line in response.text.splitlines() if line and not line.startswith("#")]
    # Route templates such as /v1/subscriptions/{id} are fine; a tenant or subscription label is not.
    assert not any(re.search(r'[{,](tenant|subscription)[a-z_]*="', line) for line in series)


def test_readiness_follows_a_stopped_and_restarted_database(tmp_path):
    """R-getReadiness-02, N8: /readyz is 503 `down` while PostgreSQL is stopped and healthy once it returns."""
    cluster = ScratchPostgres.create()
    try:
        cluster.start()
        with live_api(env={"HUB_DATABASE_URL": cluster.url}) as base:
            assert httpx.get(f"{base}/readyz", timeout=10).json()["state"] == "healthy"
            cluster.stop()
            down = httpx.get(f"{base}/readyz", timeout=10)
            assert 'streaming_hub_ready{check="database"} 0.0' in httpx.get(f"{base}/metrics", timeout=10).text
            assert down.status_code == 503
            assert down.headers["content-type"].startswith("application/json")
            body = down.json()
            assert body["state"] == "down"
            assert {p["name"]: p["state"] for p in body["probes"]}["database"] == "down"
            assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
            cluster.start()
            back = httpx.get(f"{base}/readyz", timeout=10)
            assert back.status_code == 200 and back.json()["state"] == "healthy"
            assert 'streaming_hub_ready{check="database"} 1.0' in httpx.get(f"{base}/metrics", timeout=10).text
    finally:
        cluster.destroy()


def test_readiness_down_when_kafka_unreachable(override_settings, client):
    """N8: Kafka unreachable → down (503)."""
    from hub.kafka import admin_client

    override_settings(kafka_bootstrap="127.0.0.1:1")
    admin_client.cache_clear()
    try:
        response = client.get("/readyz")
    finally:
        admin_client.cache_clear()
    assert response.status_code == 503 and response.json()["state"] == "down"


@pytest.mark.parametrize("command", ["api", "migrate"])
def test_unreachable_dependency_gives_one_clear_line(command):
    """Start-up with PostgreSQL down names it and how to start it, without a traceback."""
    result = subprocess.run(
        [sys.executable, "-m", "hub.cli", command],
        env={"HUB_DATABASE_URL": "postgresql+psycopg://hub:hub@127.0.0.1:1/hub", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 1
    assert "PostgreSQL at 127.0.0.1:1 is not reachable" in result.stderr
    assert "make stack" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_process_started_while_the_database_is_down_waits_for_it():
    """N86: with HUB_STARTUP_WAIT_SECONDS, ``hub api`` started before PostgreSQL waits and then serves
    (at 0 it exits at once: the test above); a supervisor's restart during an outage is not an exit."""
    cluster = ScratchPostgres.create()
    later = threading.Timer(3.0, cluster.start)
    try:
        later.start()
        with live_api(env={"HUB_DATABASE_URL": cluster.url, "HUB_STARTUP_WAIT_SECONDS": "120"}) as base:
            assert httpx.get(f"{base}/readyz", timeout=10).json()["state"] == "healthy"
    finally:
        later.join()
        cluster.destroy()


def test_malformed_encryption_keys_stop_start_up_with_one_line():
    """A malformed HUB_ENCRYPTION_KEYS is reported at start-up, naming the setting and not the value."""
    result = subprocess.run([sys.executable, "-m", "hub.cli", "migrate"],
                            env={"HUB_ENCRYPTION_KEYS": "k1:not-a-key-value", "PATH": "/usr/bin:/bin"},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "HUB_ENCRYPTION_KEYS" in result.stderr and "not-a-key-value" not in result.stderr
    assert "Traceback" not in result.stderr
