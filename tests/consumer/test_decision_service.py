"""The consumer service asks the external decision service (N15) like every other surface does.

Against real `hub api` and `hub grpc` processes with ``HUB_DECISION_SERVICE_URL`` set: a token that holds
every durable-queue permission is refused when the service says no, and a token that holds none is admitted
when the service says yes. The service is asked with the seed's resource and action.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import ExitStack

import grpc
import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from hub.auth.tokens import mint_token
from hub.consumer.access import CREATE, DELETE, DURABLE_PERMISSIONS, TRIAGE
from tests.consumer.conftest import metadata, pb, pb_grpc, unique
from tests.publisher.conftest import grpc_server
from devkit.httpserver import json_reply, serve
from devkit.live import live_api
from devkit.pg import free_port
from devkit.poll import wait_until
from devkit.processes import start_hub, stop

QUEUES = "/api/v1beta/queues/durable"


class DecisionService:
    """A decision service that allows exactly the ``resource:action`` pairs in ``allowed``; records asks."""

    def __init__(self) -> None:
        self.allowed: set[str] = set()
        self.asked: list[dict] = []
        self._lock = threading.Lock()

    def handle(self, method: str, path: str, body: bytes):  # noqa: ANN201
        request = json.loads(body)
        with self._lock:
            self.asked.append(request)
        return json_reply(200, {"allow": f"{request['resource']}:{request['action']}" in self.allowed})


@pytest.fixture(scope="module")
def decided() -> Iterator[tuple[DecisionService, str, str]]:
    """(the decision service, the REST base URL, the gRPC address) of a hub that asks it."""
    service = DecisionService()
    with ExitStack() as stack:
        base = stack.enter_context(serve(service.handle))
        env = {"HUB_DECISION_SERVICE_URL": f"{base}/decide", "HUB_LOG_LEVEL": "WARNING"}
        rest = stack.enter_context(live_api(env))
        address = stack.enter_context(grpc_server(env))
        yield service, rest, address


def _create(rest: str, token: str, queue_id: str) -> httpx.Response:
    return httpx.post(f"{rest}{QUEUES}", json={"queue_id": queue_id, "filter_groups": []},
                      headers={"Authorization": f"Bearer {token}"}, timeout=30)


def test_a_consumer_holding_the_permission_is_refused_by_the_decision_service(decided) -> None:
    service, rest, address = decided
    service.allowed = set()
    tenant = unique("tenant")
    token = mint_token(tenant=tenant, permissions=list(DURABLE_PERMISSIONS), subject="refused@example.com")
    answer = _create(rest, token, unique("q"))
    assert answer.status_code == 403, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert {"subject": "refused@example.com", "tenant": tenant, "resource": "event-consumer-service",
            "action": "create-durable-queues"} in service.asked
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.EventConsumerServiceStub(channel)
        with pytest.raises(grpc.RpcError) as refused:
            stub.CreateDurableQueue(pb.CreateDurableQueueRequest(queue_id=unique("q")), metadata=metadata(token),
                                    timeout=30)
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED


def test_a_consumer_without_the_permission_is_admitted_by_the_decision_service(decided) -> None:
    service, rest, address = decided
    service.allowed = {CREATE, DELETE}
    token = mint_token(tenant=unique("tenant"), permissions=[], subject="admitted@example.com")
    queue_id = unique("q")
    answer = _create(rest, token, queue_id)
    assert answer.status_code in (200, 201), answer.text
    deleted = httpx.delete(f"{rest}{QUEUES}", params={"queue_id": queue_id},
                           headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert deleted.status_code < 300, deleted.text


def test_dead_letter_triage_asks_the_decision_service(decided) -> None:
    service, _, address = decided
    service.allowed = set()
    token = mint_token(tenant=None, permissions=[TRIAGE], subject="operator@example.com")
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.EventConsumerServiceStub(channel)
        with pytest.raises(grpc.RpcError) as refused:
            for _ in stub.ManageDeadLetteredEvents(iter([pb.ManageDeadLetteredEventsRequest()]),
                                                   metadata=metadata(token), timeout=30):
                pass
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert {"subject": "operator@example.com", "tenant": None, "resource": "event-consumer-service",
            "action": "inspect-and-replay-all-dlq"} in service.asked


def test_a_query_string_token_never_reaches_a_log_line(tmp_path) -> None:
    """E9's ``token`` query parameter: neither uvicorn's WebSocket lines nor the hub's logs carry it."""
    token = mint_token(tenant=unique("tenant"), permissions=[], event_broker={"*": {"data": "R"}})
    port, log = free_port(), tmp_path / "api.log"
    with log.open("wb") as sink:
        process = start_hub("api", {"HUB_API_PORT": str(port), "HUB_API_HOST": "127.0.0.1",
                                    "HUB_LOG_LEVEL": "DEBUG"}, stderr=sink)
        try:
            base = f"127.0.0.1:{port}"
            wait_until(lambda: _answers(f"http://{base}/healthz"), 30, 0.2, "hub api to answer /healthz")
            for presented in (token, "not.a.token"):  # refused: another domain (4403), untrusted (4401)
                with connect(f"ws://{base}/api/elsewhere/event/ws?topic=orders&token={presented}") as socket:
                    with pytest.raises(ConnectionClosed):
                        socket.recv(timeout=10)
        finally:
            stop(process)
    written = log.read_text()
    assert "/event/ws" in written, "the API logged no line about the WebSocket requests"
    assert token not in written and "not.a.token" not in written


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=1).status_code == 200
    except httpx.HTTPError:
        return False
