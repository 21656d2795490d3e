"""GET /admin/dlq (listDLQObservations) on a real PostgreSQL of its own."""

from __future__ import annotations

import uuid

import pytest

from hub.dlq.service import ERROR_CLASSES
from hub.ids import new_id
from tests.catalog.contract import assert_matches


def page(client, headers, **params) -> dict:
    response = client.get("/admin/dlq", headers=headers, params=params)
    assert response.status_code == 200, response.text
    assert_matches("DLQResponse", response.json())
    return response.json()


def producers(body: dict) -> list[str]:
    return [row["producer_id"] for row in body["observations"]]


def test_operator_scope_only(dlq_db, client, make_token, observe):
    """R-listDLQObservations-01, -02: no token 401 AUT-0006; a tenant token (even with every permission) 403."""
    observe()
    assert client.get("/admin/dlq").json()["code"] == "AUT-0006"
    tenant_only = client.get("/admin/dlq", headers={"Authorization": f"Bearer {make_token()}"})
    assert tenant_only.status_code == 403 and tenant_only.json()["code"] == "forbidden"
    assert tenant_only.headers["content-type"] == "application/problem+json"
    operator = client.get("/admin/dlq", headers={"Authorization": f"Bearer {make_token(operator=True)}"})
    assert operator.status_code == 200 and len(operator.json()["observations"]) == 1


def test_no_rate_limit_headers(dlq_db, client, operator_headers):
    """R-X-RATE-07 (R-listDLQObservations-01 declares no 429): /admin/dlq is not metered."""
    response = client.get("/admin/dlq", headers=operator_headers)
    assert response.status_code == 200
    assert not [name for name in response.headers if name.lower().startswith("x-ratelimit")]


def test_cross_tenant_and_tenant_id_raw_is_never_a_scope(dlq_db, client, make_token, observe):
    """R-listDLQObservations-02, -05: every tenant's observations are listed; tenant_id_raw is only served."""
    observe(tenant_id_raw="tenant-a", producer_id="a")
    observe(tenant_id_raw="tenant-b", producer_id="b")
    observe(tenant_id_raw="", producer_id="none")
    headers = {"Authorization": f"Bearer {make_token(tenant_id='tenant-a', operator=True)}"}
    body = page(client, headers)
    assert [(row["producer_id"], row["tenant_id_raw"]) for row in body["observations"]] == [
        ("none", ""), ("b", "tenant-b"), ("a", "tenant-a")]
    same_tenant = client.get("/admin/dlq", headers={"Authorization": f"Bearer {make_token(tenant_id='tenant-a')}"})
    assert same_tenant.status_code == 403


def test_reverse_chronological_keyset_pages(dlq_db, client, operator_headers, observe):
    """R-listDLQObservations-03, -08, -09: newest first; after = last id; nextCursor '' on the last page."""
    observe(5)  # p-0 oldest … p-4 newest
    first = page(client, operator_headers, limit=2)
    assert producers(first) == ["p-4", "p-3"] and first["nextCursor"]
    assert uuid.UUID(first["nextCursor"]).version == 7
    second = page(client, operator_headers, limit=2, after=first["nextCursor"])
    assert producers(second) == ["p-2", "p-1"] and second["nextCursor"]
    third = page(client, operator_headers, limit=2, after=second["nextCursor"])
    assert producers(third) == ["p-0"] and third["nextCursor"] == ""
    exact = page(client, operator_headers, limit=5)
    assert len(exact["observations"]) == 5 and exact["nextCursor"] == ""


def test_cursor_is_the_last_rows_id(dlq_db, client, operator_headers, observe):
    """R-listDLQObservations-09: nextCursor is the id of the page's last row."""
    rows = observe(3)
    assert page(client, operator_headers, limit=2)["nextCursor"] == str(rows[1].id)
    # A cursor newer than every row gives the whole list; one older than every row an empty page.
    assert producers(page(client, operator_headers, after=str(new_id()))) == ["p-2", "p-1", "p-0"]
    assert page(client, operator_headers, after=str(rows[0].id)) == {"observations": [], "nextCursor": ""}


def test_page_size_default_and_clamp(dlq_db, client, operator_headers, observe):
    """Page size: default 50, at most 200; a non-positive or non-numeric limit means the default."""
    observe(205)
    assert len(page(client, operator_headers)["observations"]) == 50
    assert len(page(client, operator_headers, limit=500)["observations"]) == 200
    assert len(page(client, operator_headers, limit=0)["observations"]) == 50
    assert len(page(client, operator_headers, limit="many")["observations"]) == 50
    assert len(page(client, operator_headers, limit=7)["observations"]) == 7


def test_source_topic_filter_exact_and_unknown(dlq_db, client, operator_headers, observe):
    """R-listDLQObservations-06: exact topic match (no prefix match), or `unknown` for unreadable origins."""
    observe(source_topic="lerian.streaming.ledger", producer_id="ledger")
    observe(source_topic="lerian.streaming.ledger.v2", producer_id="ledger-v2")
    observe(source_topic="unknown", producer_id="lost")
    assert producers(page(client, operator_headers, source_topic="lerian.streaming.ledger")) == ["ledger"]
    assert producers(page(client, operator_headers, source_topic="unknown")) == ["lost"]
    assert producers(page(client, operator_headers, source_topic="lerian.streaming")) == []


@pytest.mark.parametrize("error_class", sorted(ERROR_CLASSES))
def test_every_error_class_filters(dlq_db, client, operator_headers, observe, error_class):
    """R-listDLQObservations-07: each DLQErrorClass value is accepted and filters exactly."""
    observe(error_class=error_class, producer_id="match")
    observe(error_class="validation" if error_class != "validation" else "auth", producer_id="other")
    body = page(client, operator_headers, error_class=error_class)
    assert producers(body) == ["match"] and body["observations"][0]["error_class"] == error_class


def test_filters_combine_with_the_cursor(dlq_db, client, operator_headers, observe, unique):
    """R-listDLQObservations-06..08: filters and keyset together."""
    topic = f"lerian.streaming.t{unique}"
    observe(3, source_topic=topic, error_class="auth")
    observe(2, source_topic=topic, error_class="network_timeout")
    first = page(client, operator_headers, source_topic=topic, error_class="auth", limit=2)
    assert producers(first) == ["p-2", "p-1"]
    rest = page(client, operator_headers, source_topic=topic, error_class="auth", after=first["nextCursor"])
    assert producers(rest) == ["p-0"] and rest["nextCursor"] == ""


@pytest.mark.parametrize(("params", "code"), [
    ({"source_topic": "bad topic"}, "invalid_source_topic"),
    ({"source_topic": ""}, "invalid_source_topic"),
    ({"source_topic": "."}, "invalid_source_topic"),
    ({"source_topic": ".."}, "invalid_source_topic"),
    ({"source_topic": "a" * 250}, "invalid_source_topic"),
    ({"source_topic": "topic/with/slash"}, "invalid_source_topic"),
    ({"error_class": "x"}, "invalid_error_class"),
    ({"error_class": "Serialization"}, "invalid_error_class"),
    ({"error_class": ""}, "invalid_error_class"),
    ({"after": "nope"}, "invalid_cursor"),
    ({"after": "-3"}, "invalid_cursor"),
    ({"after": str(uuid.uuid4())}, "invalid_cursor"),  # well formed, but no UUIDv7 the hub issued
    ({"after": ""}, "invalid_cursor"),
])
def test_invalid_filters_are_400_with_the_contract_code(dlq_db, client, operator_headers, params, code):
    """R-listDLQObservations-01, -06, -07, -08 (docs/contract-notes.md N1): 400 with the code, never 422."""
    response = client.get("/admin/dlq", headers=operator_headers, params=params)
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code and body["type"] == f"urn:streaming-hub:problem:{code}"
    assert body["status"] == 400 and body["title"] == "Bad Request"


def test_longest_legal_topic_is_accepted(dlq_db, client, operator_headers, observe):
    """R-listDLQObservations-06: a 249-character topic of Kafka's legal characters is a topic name."""
    topic = "a._-Z9" * 41 + "abc"
    observe(source_topic=topic, producer_id="long")
    assert producers(page(client, operator_headers, source_topic=topic)) == ["long"]


def test_error_message_is_sanitized_at_read(dlq_db, client, operator_headers, observe):
    """R-listDLQObservations-04, R-X-SEC-06: no secret, endpoint URL or host:port, even if stored unsanitized."""
    observe(error_message="POST https://hooks.customer.example/x?sig=1 failed: password=hunter2 "
                          "via broker-1.internal:9092 and 10.1.2.3:5432 Bearer eyJabc.def.ghi")
    message = page(client, operator_headers)["observations"][0]["error_message"]
    for leaked in ("hooks.customer.example", "hunter2", "broker-1.internal", "9092", "10.1.2.3", "eyJabc"):
        assert leaked not in message
    assert "failed" in message


def test_observation_projection_is_exact(dlq_db, client, operator_headers, observe):
    """R-listDLQObservations-10: exactly the eight contract properties, RFC 3339 UTC times."""
    observe(retry_count=8, producer_id="midaz", error_class="broker_unavailable", error_message="connection refused")
    body = page(client, operator_headers)
    assert set(body) == {"observations", "nextCursor"}
    assert body["observations"] == [{
        "source_topic": "lerian.streaming.ledger", "error_class": "broker_unavailable",
        "error_message": "connection refused", "retry_count": 8, "first_failure_at": "2030-01-01T00:00:00Z",
        "producer_id": "midaz", "observed_at": "2030-01-01T00:00:00.005000Z", "tenant_id_raw": "tenant-acme",
    }]
