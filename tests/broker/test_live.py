"""Live subscribers over WebSocket (E9): subtree levels, since-reconnects, refusals, a stalled reader."""

from __future__ import annotations

import threading
import time

import orjson
import pytest
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.broker.conftest import Broker, broker_token
from tests.broker.test_paging_purge_retention import produce, wait_stored
from tests.support.live import live_api


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def frames_until(socket, last_id: str) -> list[dict]:
    """Frames received up to and including the event LAST_ID."""
    got: list[dict] = []
    while not got or got[-1]["id"] != last_id:
        got.append(socket.receive_json())
    return got


def test_subscribers_at_several_levels_get_exactly_their_subtree(broker, ingest, client, tenant):
    since = now_ms()
    other = Broker(client, f"{tenant}-x", broker_token(f"{tenant}-x"))
    paths = {topic: broker.url(f"/ws?topic={topic}&since={since}&token={broker.token}")
             for topic in ("orders", "orders:1042", "orders:1042:lines", "ordersx")}
    with client.websocket_connect(paths["orders"]) as top, client.websocket_connect(paths["orders:1042"]) as mid, \
            client.websocket_connect(paths["orders:1042:lines"]) as low, \
            client.websocket_connect(paths["ordersx"]) as sibling:
        published = {topic: broker.publish(topic, data={"on": topic})["id"]
                     for topic in ("orders", "orders:1042", "orders:9", "orders:1042:lines:7", "ordersx")}
        other.publish("orders:1042", data={"foreign": True})
        last = broker.publish("orders:1042:lines", data={"last": True})["id"]
        sibling_last = broker.publish("ordersx", data={"last": True})["id"]
        assert [f["id"] for f in frames_until(top, last)] == [
            published["orders"], published["orders:1042"], published["orders:9"], published["orders:1042:lines:7"],
            last]
        assert [f["id"] for f in frames_until(mid, last)] == [published["orders:1042"],
                                                               published["orders:1042:lines:7"], last]
        low_frames = frames_until(low, last)
        assert [f["id"] for f in low_frames] == [published["orders:1042:lines:7"], last]
        assert set(low_frames[-1]) == {"id", "topic", "type", "data", "ts"}
        assert [f["id"] for f in frames_until(sibling, sibling_last)] == [published["ordersx"], sibling_last]


def test_reconnect_with_since_has_no_gap_while_publishing_goes_on(broker, ingest, client):
    broker.put_config("feed", {"max_events": 100_000, "ttl_seconds": 86_400})
    total, base = 300, now_ms()
    stop = threading.Event()

    def publish_all() -> None:
        for _ in range(0, total, 20):
            produce(broker.tenant, [("feed:a", "tick", now_ms()) for _ in range(20)])
            time.sleep(0.02)
        stop.set()

    seen: list[dict] = []
    url = broker.url(f"/ws?topic=feed&since={base}")
    headers = broker.headers()
    publisher = threading.Thread(target=publish_all)
    with client.websocket_connect(url, headers=headers) as first:
        publisher.start()
        seen += [first.receive_json() for _ in range(60)]
    boundary = seen[-1]["ts"]
    known = {frame["id"] for frame in seen}
    repeated: list[dict] = []
    with client.websocket_connect(broker.url(f"/ws?topic=feed&since={boundary}"), headers=headers) as second:
        while len(known) < total:
            frame = second.receive_json()
            if frame["id"] in known:
                repeated.append(frame)
                continue
            known.add(frame["id"])
            seen.append(frame)
    publisher.join(30)
    wait_stored(broker.tenant, total)
    assert all(frame["ts"] == boundary for frame in repeated)  # only the boundary millisecond repeats
    assert len(seen) == len({f["id"] for f in seen}) == total
    assert {f["id"] for f in seen} == {f["id"] for f in broker.history("feed", limit=1000)}


def test_refusals_close_with_a_code_and_reason(broker, client, tenant):
    cases = [(broker.url("/ws?topic=orders"), {}, 4401),
             (broker.url(f"/ws?topic=orders&token={broker.token}", domain="elsewhere"), {}, 4403),
             (broker.url(f"/ws?topic=orders::x&token={broker.token}"), {}, 4422),
             (broker.url(f"/ws?topic=orders&since=x&token={broker.token}"), {}, 4422),
             (broker.url("/ws?topic=orders"), {"authorization": f"Bearer {broker_token(tenant, {'*': {'data': 'P'}})}"},
              4403)]
    for url, headers, code in cases:
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url, headers=headers) as socket:
            socket.receive_text()
        assert refused.value.code == code, url


def test_a_stalled_subscriber_is_cut_off_while_the_others_keep_up(broker, ingest, override_settings, tenant):
    override_settings(broker_ws_buffer_events=40)
    count, blob = 400, "x" * 40_000
    with live_api() as base:
        url = f"ws{base[4:]}/api/{tenant}/event/ws?topic=big&since={now_ms()}&token={broker.token}"
        stalled = connect(url, max_size=None, max_queue=1)
        fast = connect(url, max_size=None)
        time.sleep(0.5)
        ids: list[str] = []
        for _ in range(0, count, 10):  # bursts of 10 that a reading subscriber's buffer absorbs
            ids += produce(tenant, [("big:a", "blob", now_ms(), blob) for _ in range(10)])
            time.sleep(0.03)
        received = [orjson.loads(fast.recv(timeout=30))["id"] for _ in range(count)]
        assert received == ids
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(count + 1):
                stalled.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4008
        assert "fell behind" in closed.value.rcvd.reason
        fast.close()
