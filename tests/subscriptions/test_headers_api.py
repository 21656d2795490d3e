"""Static headers on the delivery-options resource (N54, N67): webhook only, sealed when secret, never read
in clear."""

from __future__ import annotations

import pytest

from hub.providers.webhook.headers import header_context
from hub.secrets import unseal
from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, db_row, problem

API_KEY = {"name": "X-Api-Key", "value": "sk_live_very_secret", "secret": True}
TEAM = {"name": "X-Team", "value": "payments", "secret": False}


def _webhook(api) -> str:  # noqa: ANN001
    return api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK)["subscription"]["id"]


def test_headers_are_read_back_without_secret_values(api, allow_loopback):
    sub_id = _webhook(api)
    put = api.put_options(sub_id, {"headers": [API_KEY, {"name": "X-Team", "value": "payments"}]})
    shown = [{"name": "X-Api-Key", "secret": True}, {"name": "X-Team", "value": "payments", "secret": False}]
    assert put.status_code == 200 and put.json()["headers"] == shown
    assert api.options(sub_id).json()["headers"] == shown
    for response in (put, api.options(sub_id), api.get(sub_id), api.list(limit=200), api.reveal(sub_id)):
        assert API_KEY["value"] not in response.text
    stored = db_row(sub_id)["custom_headers"]
    assert API_KEY["value"] not in str(stored)
    assert unseal(stored[0]["sealed"], context=header_context(sub_id, "X-Api-Key")).decode() == API_KEY["value"]
    assert stored[1] == {"name": "X-Team", "value": "payments", "secret": False}


def test_no_headers_read_as_an_empty_list(api, allow_loopback):
    sub_id = _webhook(api)
    assert api.options(sub_id).json()["headers"] == []
    assert api.options(api.created()["subscription"]["id"]).json()["headers"] == []
    assert api.with_options(sub_id, headers=[])["headers"] == []
    assert db_row(sub_id)["custom_headers"] is None


def _refused(api, sub_id: str, headers: list) -> list[str]:  # noqa: ANN001
    body = problem(api.put_options(sub_id, {"headers": headers}), 422, "validation_error")
    return [error["location"] for error in body["errors"]]


@pytest.mark.parametrize("name", ["Content-Type", "user-agent", "Webhook-Signature", "webhook-id", "WEBHOOK-TIMESTAMP",
                                  "webhook-anything", "Host", "Content-Length", "ce-type"])
def test_the_hubs_own_headers_cannot_be_overridden(api, allow_loopback, name):
    assert _refused(api, _webhook(api), [TEAM, {"name": name, "value": "x"}]) == ["headers/1/name"]


@pytest.mark.parametrize(("header", "location"), [
    ({"name": "X Bad", "value": "v"}, "headers/0/name"),
    ({"name": "", "value": "v"}, "headers/0/name"),
    ({"name": "X-Ok", "value": "a\r\nX-Injected: 1"}, "headers/0/value"),
    ({"name": "X-Ok", "value": "line\nbreak"}, "headers/0/value"),
    ({"name": "X-Ok", "value": " padded"}, "headers/0/value"),
    ({"name": "X-Ok", "value": ""}, "headers/0/value"),
    ({"name": "X-Ok", "value": "caf\u00e9"}, "headers/0/value"),
    ({"name": "X-Ok", "value": "x" * 4097}, "headers/0/value"),
])
def test_names_and_values_follow_rfc_9110(api, allow_loopback, header, location):
    assert _refused(api, _webhook(api), [header]) == [location]


def test_count_duplicates_schema_and_kind(api, allow_loopback):
    sub_id = _webhook(api)
    many = [{"name": f"X-H{i}", "value": "v"} for i in range(21)]
    assert _refused(api, sub_id, many) == ["headers"]
    assert len(api.with_options(sub_id, headers=many[:20])["headers"]) == 20
    assert _refused(api, sub_id, [TEAM, {"name": "x-team", "value": "w"}]) == ["headers/1/name"]
    assert _refused(api, sub_id, [{**TEAM, "other": 1}])[0].startswith("headers")
    assert len(db_row(sub_id)["custom_headers"]) == 20, "a refused PUT writes nothing"
    for kind, endpoint in (("pull", None), ("rabbitmq", "orders/")):
        other = api.created(sink_kind=kind, **({"endpoint": endpoint} if endpoint else {}))["subscription"]["id"]
        assert _refused(api, other, [TEAM]) == ["headers"]
        assert api.with_options(other, headers=[])["headers"] == [], "an empty list is no headers on any kind"


def test_put_replaces_and_clears_headers(api, allow_loopback):
    sub_id = _webhook(api)
    api.with_options(sub_id, headers=[API_KEY])
    assert api.with_options(sub_id, headers=[TEAM])["headers"] == [TEAM]
    assert _refused(api, sub_id, [{"name": "Webhook-Id", "value": "x"}]) == ["headers/0/name"]
    assert db_row(sub_id)["custom_headers"] == [TEAM]
    assert api.with_options(sub_id, headers=None)["headers"] == []
    assert db_row(sub_id)["custom_headers"] is None
