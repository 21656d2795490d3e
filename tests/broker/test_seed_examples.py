"""Seed 003's own examples, run as written with curl against a live `hub api` (host and token aside)."""

from __future__ import annotations

import os
import subprocess

import httpx
import orjson
import pytest

from tests.broker.conftest import broker_token
from devkit.live import live_api

# The seed's curl commands verbatim, apart from the host (API) and the domain's tenant (acme).
PUBLISH = """curl -s -X POST $API/api/$DOMAIN/event/data/orders:1042 \\
  -H "authorization: Bearer $TOKEN" \\
  -H 'content-type: application/json' \\
  -d '{"type":"order.shipped","data":{"carrier":"DHL","tracking":"JD014600003SE"}}'"""
HISTORY = """curl -s "$API/api/$DOMAIN/event/data/orders?type=order.shipped&limit=20" \\
  -H "authorization: Bearer $TOKEN\""""
PURGE = """curl -s -X DELETE "$API/api/$DOMAIN/event/data/chat:room-7" -H "authorization: Bearer $TOKEN\""""
PUT_CONFIG = """curl -s -X PUT $API/api/$DOMAIN/event/topics/chat \\
  -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \\
  -d '{"max_events":50000,"ttl_seconds":604800}'"""


def shell(command: str, env: dict[str, str]) -> dict:
    done = subprocess.run(["bash", "-c", command], env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return orjson.loads(done.stdout)


@pytest.fixture
def seed_env(broker_lane, ingest, tenant):
    with live_api() as base:
        yield {"API": base, "DOMAIN": tenant, "TOKEN": broker_token(tenant)}


def test_the_seeds_curl_examples(seed_env):
    published = shell(PUBLISH, seed_env)["data"]
    assert published["topic"] == "orders:1042" and published["type"] == "order.shipped"
    assert published["data"] == {"carrier": "DHL", "tracking": "JD014600003SE"}
    assert shell(HISTORY, seed_env) == {"data": [published]}
    room = seed_env | {"BODY": '{"type":"msg","data":"hi"}'}
    for _ in range(3):
        shell("""curl -s -X POST $API/api/$DOMAIN/event/data/chat:room-7:thread -H "authorization: Bearer $TOKEN" \
               -H 'content-type: application/json' -d "$BODY\"""", room)
    assert shell(PURGE, seed_env) == {"data": {"deleted": 3}}
    config = shell(PUT_CONFIG, seed_env)["data"]
    assert (config["topic"], config["max_events"], config["ttl_seconds"], config["default"]) == (
        "chat", 50000, 604800, False)


def test_the_seeds_sdk_paging_example(seed_env):
    """`list('orders', {limit: 1000})`, then `until: oldest.ts` for the next page."""
    base, headers = seed_env["API"], {"authorization": f"Bearer {seed_env['TOKEN']}"}
    url = f"{base}/api/{seed_env['DOMAIN']}/event/data/orders"
    for n in range(3):
        assert httpx.post(f"{url}:{n}", json={"type": "t", "data": n}, headers=headers).status_code == 201
    page1 = httpx.get(url, params={"limit": 1000}, headers=headers).json()["data"]
    oldest = page1[-1]
    page2 = httpx.get(url, params={"limit": 1000, "until": oldest["ts"]}, headers=headers).json()["data"]
    assert [e["data"] for e in page1] == [2, 1, 0]
    assert all(e["ts"] < oldest["ts"] for e in page2)
