"""Seed 000's consumer REST examples, run as written with curl against the running hub (host and token aside):
the two non-durable streams, the durable queue's create, stream and delete."""

from __future__ import annotations

import os
import queue
import subprocess
import threading
from collections.abc import Iterator

import httpx
import orjson
import pytest

from tests.consumer.conftest import ConsumerHub, consumer_token
from tests.consumer.sse_client import Frame, frames_of

SEED_HOST = "https://your-consumer-service.example.com"

# The seed's curl commands verbatim; as_run puts $API for its host and $TOKEN for YOUR_TOKEN.
SIMPLE = """curl -N https://your-consumer-service.example.com/api/v1beta/events/stream \\
  -H "Authorization: Bearer YOUR_TOKEN\""""
FILTERED = """FILTERS='[{"event_type":"myapp.user.created","filters":[]}]'
curl -N https://your-consumer-service.example.com/api/v1beta/events/stream \\
  -H "Authorization: Bearer YOUR_TOKEN" \\
  -G --data-urlencode "filter_groups=$FILTERS\""""
DURABLE_STREAM = """curl -N https://your-consumer-service.example.com/api/v1beta/events/stream-durable?queue_id=my-queue-id \\
  -H "Authorization: Bearer YOUR_TOKEN\""""
CREATE = """curl -X POST https://your-consumer-service.example.com/api/v1beta/queues/durable \\
  -H "Authorization: Bearer YOUR_TOKEN" \\
  -H "Content-Type: application/json" \\
  -d '{
    "filter_groups": [
      {
        "event_type": "myapp.file.uploaded",
        "filters": [
          {
            "filter_type": "starts_with_greedy",
            "resource_id": "/uploads/"
          }
        ]
      }
    ],
    "queue_id": "myapp-uploads-queue"
  }'"""
DELETE = """curl -X DELETE "https://your-consumer-service.example.com/api/v1beta/queues/durable?queue_id=my-queue-id" \\
  -H "Authorization: Bearer YOUR_TOKEN\""""


def as_run(command: str) -> str:
    return command.replace(SEED_HOST, "$API").replace("YOUR_TOKEN", "$TOKEN")


def shell(command: str, env: dict[str, str]) -> dict:
    done = subprocess.run(["bash", "-c", as_run(command)], env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return orjson.loads(done.stdout)


class CurlStream:
    """A streaming curl command; its SSE frames read on a thread."""

    def __init__(self, command: str, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(["bash", "-c", as_run(command)], env={**os.environ, **env},
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.frames: queue.Queue[Frame] = queue.Queue()
        lines: Iterator[str] = (line.rstrip("\n") for line in self.process.stdout)  # type: ignore[union-attr]
        threading.Thread(target=lambda: [self.frames.put(f) for f in frames_of(lines)], daemon=True).start()

    def next(self, timeout: float = 30.0) -> Frame:
        return self.frames.get(timeout=timeout)

    def quiet(self, seconds: float) -> list[Frame]:
        try:
            return [self.frames.get(timeout=seconds)]
        except queue.Empty:
            return []

    def __enter__(self) -> CurlStream:
        return self

    def __exit__(self, *_: object) -> None:
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def seed_env(consumer_hub: ConsumerHub, tenant: str) -> dict[str, str]:
    return {"API": consumer_hub.rest, "TOKEN": consumer_token(tenant)}


def _connected(stream: CurlStream) -> str:
    frame = stream.next()
    assert frame.event == "connected" and frame.json() == {"message": "Connection established",
                                                           "reconnect_token": frame.id}
    return frame.id or ""


def test_the_simple_and_filtered_stream_examples(consumer_hub: ConsumerHub, tenant: str, seed_env) -> None:  # noqa: ANN001
    with CurlStream(SIMPLE, seed_env) as simple, CurlStream(FILTERED, seed_env) as filtered:
        _connected(simple), _connected(filtered)
        consumer_hub.publish(tenant, "myapp.user.updated", {"user_id": "123"})
        consumer_hub.publish(tenant, "myapp.user.created", {"user_id": "123"})
        assert sorted(simple.next().json()["event_type"] for _ in range(2)) == ["myapp.user.created",
                                                                        "myapp.user.updated"]
        frame = filtered.next()
        assert frame.event == "event" and frame.json()["message"] == {"user_id": "123"}
        assert frame.json()["event_type"] == "myapp.user.created" and filtered.quiet(1) == []


def test_the_durable_queue_examples(consumer_hub: ConsumerHub, tenant: str, seed_env) -> None:  # noqa: ANN001
    headers = {"Authorization": f"Bearer {seed_env['TOKEN']}"}
    try:
        assert shell(CREATE, seed_env) == {"queue_id": "myapp-uploads-queue", "created": True}
        assert shell(CREATE, seed_env) == {"queue_id": "myapp-uploads-queue", "created": False}
        made = httpx.post(f"{consumer_hub.rest}/api/v1beta/queues/durable", json={"queue_id": "my-queue-id"},
                          headers=headers)
        assert made.status_code == 201
        with CurlStream(DURABLE_STREAM, seed_env) as stream:
            assert _connected(stream) == "my-queue-id"
            consumer_hub.publish(tenant, "myapp.user.created", {"user_id": "123"})
            assert stream.next().json()["message"] == {"user_id": "123"}
        assert shell(DELETE, seed_env) == {"success": True}
    finally:  # queue ids are deployment-wide: leave none of the seed's behind
        for queue_id in ("myapp-uploads-queue", "my-queue-id"):
            httpx.delete(f"{consumer_hub.rest}/api/v1beta/queues/durable", params={"queue_id": queue_id},
                         headers=headers)
