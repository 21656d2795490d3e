"""Stored idempotent answers hold no secret in clear (R-X-SEC-03, R-createSubscription-22)."""

from __future__ import annotations

import base64

import psycopg

from hub.db import libpq_url


def test_stored_create_answer_is_sealed_and_replays_the_same_secret(client, auth_headers, override_settings,
                                                                    tenant):
    """The create answer (with its signingSecret) is stored sealed; its replay is byte-for-byte the original."""
    override_settings(egress_allow_cidrs="127.0.0.0/8")
    headers = {**auth_headers, "X-Idempotency": "sealed-answer-1"}
    body = {"name": "sealed", "sink_kind": "webhook", "endpoint": "https://127.0.0.1:9/hook"}
    first = client.post("/v1/subscriptions", json=body, headers=headers)
    assert first.status_code == 201, first.text
    secret = first.json()["signingSecret"]
    with psycopg.connect(libpq_url()) as connection:
        stored = connection.execute("SELECT body FROM idempotency_records WHERE tenant_id = %s AND key = %s",
                                    (tenant, "sealed-answer-1")).fetchone()[0]
    assert secret.encode() not in bytes(stored)
    assert base64.b64decode(secret).hex().encode() not in bytes(stored)
    replay = client.post("/v1/subscriptions", json=body, headers=headers)
    assert replay.status_code == 201 and replay.content == first.content
    assert replay.headers["X-Idempotency-Replayed"] == "true"
