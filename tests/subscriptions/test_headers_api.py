"""Static headers on the subscription routes (N54): webhook only, sealed when secret, never read in clear."""

from __future__ import annotations

import pytest

from hub.providers.headers import header_context
from hub.secrets import unseal
from tests.subscriptions.conftest import LOOPBACK_WEBHOOK, db_row, problem

API_KEY = {"name": "X-Api-Key", "value": "sk_live_very_secret", "secret": True}
TEAM = {"name": "X-Team", "value": "payments", "secret": False}


def _webhook(api, **body):  # noqa: ANN001, ANN202
    return api.created(sink_kind="webhook", endpoint=LOOPBACK_WEBHOOK, **body)["subscription"]


def test_headers_are_read_back_without_secret_values(api, allow_loopback):
    created = _webhook(api, headers=[API_KEY, {"name": "X-Team", "value": "payments"}])
    shown = [{"name": "X-Api-Key", "secret": True}, {"name": "X-Team", "value": "payments", "secret": False}]
    assert created["headers"] == shown
    assert api.get(created["id"]).json()["subscription"]["headers"] == shown
    for response in (api.get(created["id"]), api.list(limit=200), api.reveal(created["id"])):
        assert API_KEY["value"] not in response.text
    stored = db_row(created["id"])["custom_headers"]
    assert API_KEY["value"] not in str(stored)
    assert unseal(stored[0]["sealed"], context=header_context(created["id"], "X-Api-Key")).decode() == API_KEY["value"]
    assert stored[1] == {"name": "X-Team", "value": "payments", "secret": False}


def test_no_headers_read_as_an_empty_list(api, allow_loopback):
    assert _webhook(api)["headers"] == []
    assert api.created()["subscription"]["headers"] == []
    assert db_row(_webhook(api, headers=[])["id"])["custom_headers"] is None


@pytest.mark.parametrize("name", ["Content-Type", "user-agent", "Webhook-Signature", "webhook-id", "WEBHOOK-TIMESTAMP",
                                  "webhook-anything", "Host", "Content-Length", "ce-type"])
def test_the_hubs_own_headers_cannot_be_overridden(api, allow_loopback, name):
    response = api.create({"name": "h", "sink_kind": "webhook", "endpoint": LOOPBACK_WEBHOOK,
                           "headers": [TEAM, {"name": name, "value": "x"}]})
    body = problem(response, 422, "validation_error")
    assert [error["location"] for error in body["errors"]] == ["headers/1/name"]


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
    response = api.create({"name": "h", "sink_kind": "webhook", "endpoint": LOOPBACK_WEBHOOK, "headers": [header]})
    assert [error["location"] for error in problem(response, 422, "validation_error")["errors"]] == [location]


def test_count_duplicates_schema_and_kind(api, allow_loopback):
    many = [{"name": f"X-H{i}", "value": "v"} for i in range(21)]
    base = {"name": "h", "sink_kind": "webhook", "endpoint": LOOPBACK_WEBHOOK}
    assert problem(api.create({**base, "headers": many}), 422, "validation_error")["errors"][0]["location"] == "headers"
    assert api.create({**base, "headers": many[:20]}).status_code == 201
    twice = problem(api.create({**base, "name": "h2", "headers": [TEAM, {"name": "x-team", "value": "w"}]}), 422,
                    "validation_error")
    assert [error["location"] for error in twice["errors"]] == ["headers/1/name"]
    extra = problem(api.create({**base, "name": "h3", "headers": [{**TEAM, "other": 1}]}), 422, "validation_error")
    assert extra["errors"][0]["location"].startswith("headers")
    for kind, endpoint in (("pull", None), ("rabbitmq", "orders/")):
        body = {"name": f"q-{kind}", "sink_kind": kind, "headers": [TEAM], **({"endpoint": endpoint} if endpoint else {})}
        refused = problem(api.create(body), 422, "validation_error")
        assert [error["location"] for error in refused["errors"]] == ["headers"]


def test_patch_replaces_and_clears_headers(api, allow_loopback):
    sub_id = _webhook(api, headers=[API_KEY])["id"]
    assert api.patch(sub_id, {"schema_major": None, "headers": [TEAM]}).status_code == 200
    assert api.get(sub_id).json()["subscription"]["headers"] == [TEAM]
    assert api.patch(sub_id, {"schema_major": None}).status_code == 200
    assert api.get(sub_id).json()["subscription"]["headers"] == [TEAM], "absent leaves them"
    refused = problem(api.patch(sub_id, {"schema_major": None, "headers": [{"name": "Webhook-Id", "value": "x"}]}),
                      422, "validation_error")
    assert [error["location"] for error in refused["errors"]] == ["headers/0/name"]
    assert db_row(sub_id)["custom_headers"] == [TEAM]
    assert api.patch(sub_id, {"schema_major": None, "headers": None}).status_code == 200
    assert api.get(sub_id).json()["subscription"]["headers"] == []
    assert db_row(sub_id)["custom_headers"] is None


def test_patch_refuses_headers_on_a_kind_without_them(api):
    sub_id = api.created()["subscription"]["id"]
    refused = problem(api.patch(sub_id, {"schema_major": None, "headers": [TEAM]}), 422, "validation_error")
    assert [error["location"] for error in refused["errors"]] == ["headers"]
    assert api.patch(sub_id, {"schema_major": None, "headers": []}).status_code == 200
