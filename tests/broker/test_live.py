"""Live subscribers over WebSocket (E9): subtree levels, since-reconnects, refusals, a stalled reader."""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
import time

import orjson
import psycopg
import pytest
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from hub.broker.feed import LiveFeed, Subscriber
from hub.db import libpq_url
from tests.broker.conftest import Broker, broker_token
from tests.broker.test_paging_purge_retention import produce, wait_stored
from devkit.live import live_api


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


class StalledSocket:
    """A WebSocket client on a raw socket with a tiny receive buffer that reads nothing until asked."""

    def __init__(self, base: str, path: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect((host, int(port)))
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(1)
        assert self.buffer.startswith(b"HTTP/1.1 101"), self.buffer
        self.buffer = b""

    def _take(self, size: int) -> bytes:
        while len(self.buffer) < size:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the connection ended without a close frame")
            self.buffer += chunk
        taken, self.buffer = self.buffer[:size], self.buffer[size:]
        return taken

    def frames_until_close(self) -> tuple[int, tuple[int, str]]:
        """Read on: (data frames received, (close code, reason))."""
        self.sock.settimeout(30)
        frames = 0
        while True:
            first, second = self._take(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", self._take(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", self._take(8))[0]
            payload = self._take(size)
            if first & 0x0F == 0x8:
                return frames, (struct.unpack("!H", payload[:2])[0], payload[2:].decode())
            frames += 1


def test_a_stalled_subscriber_is_cut_off_while_the_others_keep_up(broker, ingest, override_settings, tenant):
    override_settings(broker_ws_buffer_events=40)
    count, blob = 400, "x" * 40_000
    with live_api() as base:
        path = f"/api/{tenant}/event/ws?topic=big&since={now_ms()}&token={broker.token}"
        stalled = StalledSocket(base, path)
        fast = connect(f"ws{base[4:]}{path}", max_size=None, max_queue=None)  # it reads while we produce
        time.sleep(0.5)
        ids: list[str] = []
        for _ in range(0, count, 10):  # bursts of 10 that a reading subscriber's buffer absorbs
            ids += produce(tenant, [("big:a", "blob", now_ms(), blob) for _ in range(10)])
            time.sleep(0.03)
        received = [orjson.loads(fast.recv(timeout=30))["id"] for _ in range(count)]
        assert received == ids
        frames, (code, reason) = stalled.frames_until_close()
        assert frames < count and code == 4008 and "fell behind" in reason
        fast.close()


def test_the_feed_plans_each_read_of_new_rows_afresh(ingest, tenant):
    """Past psycopg's prepare threshold (5 runs) the feed's connection still holds no prepared statement:
    each read is planned for its own cursor, so a generic plan made while the tables were small cannot
    go on reading the tenant's whole log (issue 39); and every event still reaches the subscriber."""
    async def run() -> tuple[int, list[str], list[str]]:
        feed = LiveFeed()
        subscriber = Subscriber(tenant, "plans", 100, asyncio.get_running_loop())
        await asyncio.to_thread(feed.subscribe, subscriber)
        ids: list[str] = []
        async with await psycopg.AsyncConnection.connect(libpq_url(), autocommit=True) as connection:
            for i in range(8):
                ids += produce(tenant, [("plans", "plan.checked", now_ms(), {"i": i})])
                await asyncio.to_thread(wait_stored, tenant, i + 1)
                await feed._dispatch(connection, tenant)
            prepared = (await (await connection.execute("SELECT count(*) FROM pg_prepared_statements")).fetchone())[0]
        got: list[str] = []
        while len(got) < len(ids):
            got.append((await asyncio.wait_for(subscriber.frames.get(), 10))[0])
        feed.unsubscribe(subscriber)
        return prepared, ids, got

    prepared, published, framed = asyncio.run(run())
    assert prepared == 0
    assert framed == published


def test_the_feed_reads_new_rows_through_indexes_only(tenant):
    """The feed's connection cannot choose a sequential scan, a hash or a merge join (stale statistics
    made even a fresh plan hash the tenant's whole log, N84): its page of new rows is an index range of
    broker_events and a key lookup of each row's event."""
    from hub.broker.feed import NEW_ROWS_SQL, _connect

    async def settings_and_plan() -> tuple[list[str], str]:
        async with await _connect() as connection:
            shown = [(await (await connection.execute(f"SHOW {name}")).fetchone())[0]
                     for name in ("enable_seqscan", "enable_hashjoin", "enable_mergejoin")]
            rows = await (await connection.execute("EXPLAIN " + NEW_ROWS_SQL, (tenant, 0, 1000))).fetchall()
        return shown, "\n".join(row[0] for row in rows)

    settings, plan = asyncio.run(settings_and_plan())
    assert settings == ["off", "off", "off"]
    assert "Seq Scan" not in plan and "Hash" not in plan and "Merge" not in plan, plan
    assert "Index" in plan, plan
