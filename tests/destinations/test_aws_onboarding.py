"""setup-artifacts, delegated-grant and verify, and the whole AWS onboarding path a user walks (moto server).

R-getSubscriptionSetupArtifacts-*, R-putSubscriptionDelegatedGrant-*, R-verifySubscription-*, R-X-STATE-*,
R-X-SEC-05, D2.
"""

from __future__ import annotations

import asyncio
import json
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import text

from hub.config import get_settings
from hub.db import get_engine
from hub.destinations.service import delivery_access
from hub.providers.eventbridge.sink import EventBridgeSink
from hub.providers.sqs.sink import SqsSink
from hub.sinks.vocabulary import SinkKind
from hub.subscription.models import Subscription
from tests.destinations.conftest import PRINCIPAL, TEMPLATE
from tests.subscriptions.conftest import db_row, new_key, problem
from devkit.destinations import (
    ACCOUNT, STATIC_AWS, authenticating_moto, aws, delivery, receive_all, unique,
)


def _set(sub_id: str, **values) -> None:
    assignments = ", ".join(f"{name} = :{name}" for name in values)
    with get_engine().begin() as connection:
        connection.execute(text(f"UPDATE subscriptions SET {assignments} WHERE id = :id"), {"id": sub_id, **values})


def _grant_body(kind: str, endpoint: str, role_arn: str) -> dict[str, str]:
    if kind == "sqs":
        return {"roleArn": role_arn, "region": "us-east-1", "destination": endpoint}
    return {"roleArn": role_arn, "region": "us-east-1",
            "destination": f"arn:aws:events:us-east-1:{ACCOUNT}:event-bus/{endpoint}"}


def _create_role(artifacts: dict, kind: str, name: str) -> str:
    """What the customer does in their account: a role trusting the hub (the artifact's policy), allowed one
    action on the one queue or bus."""
    iam, role_name = aws("iam"), unique("hub-delivery")
    role = iam.create_role(RoleName=role_name, AssumeRolePolicyDocument=artifacts["trustPolicy"])["Role"]
    action, resource = (("sqs:SendMessage", f"arn:aws:sqs:us-east-1:{ACCOUNT}:{name}") if kind == "sqs" else
                        ("events:PutEvents", f"arn:aws:events:us-east-1:{ACCOUNT}:event-bus/{name}"))
    iam.put_role_policy(RoleName=role_name, PolicyName="deliver", PolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": action, "Resource": resource}]}))
    return role["Arn"]


@pytest.mark.parametrize("kind", ["sqs", "eventbridge"])
def test_onboarding_path_delivers(api, aws_destinations, setup_configured, kind):
    """The user's path: setup-artifacts → role from the trust policy (moto IAM) → delegated-grant → verify →
    active; the sink, given the stored grant, assumes the role with the ExternalId and delivers into the
    queue / onto the bus. R-X-STATE-03, R-verifySubscription-03/07, R-putSubscriptionDelegatedGrant-05."""
    if kind == "sqs":
        endpoint = tap = aws_destinations.queue()
        name = endpoint.rsplit("/", 1)[1]
    else:
        endpoint, tap = aws_destinations.bus_with_tap()
        name = endpoint
    sub_id = api.subscription(kind, endpoint)
    artifacts = api.artifacts(sub_id).json()
    role_arn = _create_role(artifacts, kind, name)
    assert api.grant(sub_id, _grant_body(kind, endpoint, role_arn)).status_code == 200
    assert db_row(sub_id)["verification_state"] == "pending_verification"
    assert api.verify(sub_id).json() == {"outcome": "ok", "statusCode": 0, "errorClass": ""}
    row = db_row(sub_id)
    assert row["verification_state"] == "active" and row["credential_kind"] == "delegated_grant"

    access = delivery_access(Subscription(**row))
    credential, grant = access.credential, access.grant
    assert credential is None and grant["externalId"] == artifacts["externalId"] and grant["roleArn"] == role_arn
    sink_class = SqsSink if kind == "sqs" else EventBridgeSink
    sent = delivery(SinkKind(kind), endpoint, grant=grant)

    async def send():
        sink = sink_class(settings=get_settings())
        try:
            return await sink.deliver(sent)
        finally:
            await sink.close()

    assert asyncio.run(send()).ok
    [message] = receive_all(tap, 1)
    received = json.loads(message["Body"])
    if kind == "sqs":
        assert received == json.loads(sent.body)
    else:
        assert received["detail"] == json.loads(sent.body)["data"] and received["source"] == "ledger"
        assert received["detail-type"] == "orders.created"


def test_setup_artifacts_shape_and_stability(api, setup_configured):
    """R-getSubscriptionSetupArtifacts-02/03/07, R-X-SEC-05: exactly four fields; the ExternalId is minted
    once and stable; the trust policy names the hub principal with an sts:ExternalId condition; the
    quick-create link carries the template URL and the ExternalId; rate-limit headers are present."""
    sub_id = api.subscription("sqs", f"https://52.94.0.10/{ACCOUNT}/orders")
    first, second = api.artifacts(sub_id), api.artifacts(sub_id)
    assert first.status_code == 200, first.text
    assert first.json() == second.json()
    body = first.json()
    assert set(body) == {"externalId", "region", "trustPolicy", "quickCreateUrl"} and body["region"] == "us-east-1"
    [statement] = json.loads(body["trustPolicy"])["Statement"]
    assert statement["Principal"] == {"AWS": PRINCIPAL} and statement["Action"] == "sts:AssumeRole"
    assert statement["Condition"] == {"StringEquals": {"sts:ExternalId": body["externalId"]}}
    url = urlsplit(body["quickCreateUrl"])
    assert url.scheme == "https" and url.hostname == "us-east-1.console.aws.amazon.com"
    params = parse_qs(url.fragment.partition("?")[2])
    assert params["templateURL"] == [TEMPLATE] and params["param_ExternalId"] == [body["externalId"]]
    assert params["param_DestinationName"] == ["orders"] and params["param_DestinationKind"] == ["sqs"]
    assert db_row(sub_id)["external_id"] == body["externalId"]
    for name in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"):
        assert name in first.headers


def test_setup_artifacts_refusals(api, override_settings, make_token):
    """R-getSubscriptionSetupArtifacts-05/06/08: non-AWS kinds → 422; unconfigured principal or template →
    500 internal_error with the scrubbed detail (R-X-PROB-06; the cause goes to the operator's log, N69);
    absent or foreign ids → 404."""
    sqs_id = api.subscription("sqs", f"https://52.94.0.10/{ACCOUNT}/orders")
    override_settings(aws_hub_principal_arn="", aws_setup_template_url="")
    problem(api.artifacts(sqs_id), 500, "internal_error")
    override_settings(aws_hub_principal_arn=PRINCIPAL)
    assert problem(api.artifacts(sqs_id), 500, "internal_error")["detail"] == "internal error"
    override_settings(aws_setup_template_url=TEMPLATE)
    assert api.artifacts(sqs_id).status_code == 200
    for kind, endpoint in (("rabbitmq", "orders/"), ("pull", None), ("webhook", "https://93.184.215.14/h")):
        problem(api.artifacts(api.subscription(kind, endpoint)), 422, "validation_error")
    problem(api.artifacts(sqs_id, token=make_token(tenant_id="t-other")), 404, "not_found")
    problem(api.artifacts("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"), 404, "not_found")


def test_delegated_grant_rules(api):
    """R-putSubscriptionDelegatedGrant-01..09, R-X-IDEM-01/02/03/10, R-X-STATE-06: X-Idempotency required;
    200 with no body and the state unchanged; a replay carries X-Idempotency-Replayed; credential_kind reads
    delegated_grant and nothing secret is stored."""
    endpoint = f"https://52.94.0.10/{ACCOUNT}/orders"
    sub_id = api.subscription("sqs", endpoint)
    body = _grant_body("sqs", endpoint, f"arn:aws:iam::{ACCOUNT}:role/delivery")
    problem(api.grant(sub_id, body, key=None), 400, "missing_idempotency_key")
    key = new_key()
    first = api.grant(sub_id, body, key=key)
    assert first.status_code == 200 and first.content == b"" and "x-idempotency-replayed" not in first.headers
    replay = api.grant(sub_id, body, key=key)
    assert replay.status_code == 200 and replay.headers["x-idempotency-replayed"] == "true"
    problem(api.grant(sub_id, {**body, "region": "eu-west-1"}, key=key), 409, "idempotency_conflict")
    row = db_row(sub_id)
    assert row["verification_state"] == "pending_verification" and row["credential_sealed"] is None
    assert row["delegated_grant"] == body
    read = api.get(sub_id).json()["subscription"]
    assert read["credential_kind"] == "delegated_grant" and read["secret_configured"] is False


@pytest.mark.parametrize("change, code", [
    ({"roleArn": None}, "validation_error"), ({"region": None}, "validation_error"),
    ({"destination": None}, "validation_error"), ({"extra": "x"}, "validation_error"),
    ({"roleArn": "not-an-arn"}, "validation_error"), ({"region": "mars-1"}, "validation_error"),
    ({"destination": f"https://52.94.0.10/{ACCOUNT}/another-queue"}, "validation_error"),
    ({"destination": f"https://10.1.2.3/{ACCOUNT}/orders"}, "endpoint_blocked"),
    ({"destination": f"https://169.254.169.254/{ACCOUNT}/orders"}, "endpoint_blocked"),
])
def test_delegated_grant_refusals(api, change, code):
    """R-putSubscriptionDelegatedGrant-03/04: missing or malformed coordinates → 422 validation_error; a
    destination on a blocked address → 422 endpoint_blocked; nothing is written."""
    endpoint = f"https://52.94.0.10/{ACCOUNT}/orders"
    sub_id = api.subscription("sqs", endpoint)
    body = {**_grant_body("sqs", endpoint, f"arn:aws:iam::{ACCOUNT}:role/r"), **change}
    problem(api.grant(sub_id, {k: v for k, v in body.items() if v is not None}), 422, code)
    assert db_row(sub_id)["delegated_grant"] is None


def test_delegated_grant_kinds_and_404(api, make_token):
    """R-putSubscriptionDelegatedGrant-03, R-X-ORACLE-01: a non-AWS sink → 422; absent/foreign ids → 404;
    an event-bus grant must name the subscription's bus in its region."""
    body = _grant_body("sqs", f"https://52.94.0.10/{ACCOUNT}/orders", f"arn:aws:iam::{ACCOUNT}:role/r")
    problem(api.grant(api.subscription("rabbitmq", "orders/"), body), 422, "validation_error")
    bus_id = api.subscription("eventbridge", "orders-bus")
    problem(api.grant(bus_id, _grant_body("eventbridge", "other-bus", body["roleArn"])), 422, "validation_error")
    assert api.grant(bus_id, _grant_body("eventbridge", "orders-bus", body["roleArn"])).status_code == 200
    problem(api.grant(bus_id, body, token=make_token(tenant_id="t-other")), 404, "not_found")


def test_verify_clears_auto_disable_and_degrades_on_failure(api, aws_destinations):
    """R-verifySubscription-03/04/05/09, R-X-STATE-04/05: success moves to active and re-enables (enabled true,
    reason cleared) in the same transaction, id kept; a later failure of the active one → degraded, 200
    outcome failed, enabled untouched."""
    queue = aws_destinations.queue()
    sub_id = api.subscription("sqs", queue)
    assert api.put_credential(sub_id, {"sinkConfig": STATIC_AWS}).json()["outcome"] == "ok"
    _set(sub_id, enabled=False, auto_disabled=True, disabled_reason="no success for 5 days 12 hours")
    assert api.verify(sub_id).json()["outcome"] == "ok"
    row = db_row(sub_id)
    assert (row["enabled"], row["auto_disabled"], row["disabled_reason"], row["verification_state"]) == (
        True, False, "", "active")
    aws("sqs").delete_queue(QueueUrl=queue)
    failed = api.verify(sub_id)
    assert failed.status_code == 200 and failed.json()["errorClass"] == "destination_missing"
    assert db_row(sub_id)["verification_state"] == "degraded" and db_row(sub_id)["enabled"] is True
    assert api.get(sub_id).json()["subscription"]["id"] == sub_id


def test_verify_when_sts_refuses(api, setup_configured, aws_destinations, override_settings):
    """R-X-STATE-09, R-verifySubscription-05: when STS refuses the AssumeRole (a moto server with
    authentication on, which does not know the hub's key), verify answers 200 failed auth_failed and the
    detail names the STS step; the state stays pending."""
    endpoint = aws_destinations.queue()
    sub_id = api.subscription("sqs", endpoint)
    api.artifacts(sub_id)
    assert api.grant(sub_id, _grant_body("sqs", endpoint, f"arn:aws:iam::{ACCOUNT}:role/delivery")).status_code == 200
    with authenticating_moto() as url:
        override_settings(aws_endpoint_url=url)
        body = api.verify(sub_id).json()
    assert body["outcome"] == "failed" and body["errorClass"] == "auth_failed"
    assert body["detail"].startswith("sts:AssumeRole failed")
    assert db_row(sub_id)["verification_state"] == "pending_verification"


def test_verify_unsupported_and_uncredentialed(api, make_token):
    """R-verifySubscription-06/08/10, D2: rabbitmq and pull → 422 probe_unsupported_for_sink_kind; an AWS sink
    with neither grant nor credential → 200 failed no_credential; no X-Idempotency needed; 404s uniform."""
    problem(api.verify(api.subscription("rabbitmq", "orders/")), 422, "probe_unsupported_for_sink_kind")
    problem(api.verify(api.subscription("pull", None)), 422, "probe_unsupported_for_sink_kind")
    sub_id = api.subscription("eventbridge", "orders-bus")
    body = api.verify(sub_id).json()
    assert body["outcome"] == "failed" and body["errorClass"] == "no_credential"
    problem(api.verify(sub_id, token=make_token(tenant_id="t-other")), 404, "not_found")
    problem(api.verify("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"), 404, "not_found")


def test_region_follows_the_queue_url_host():
    """The artifacts' region is the one an SQS queue URL names (sqs.<region>.amazonaws.com)."""
    from hub.providers.registry import provider_for

    assert provider_for("sqs").endpoint_region(f"https://sqs.eu-west-1.amazonaws.com/{ACCOUNT}/q") == "eu-west-1"
    assert provider_for("sqs").endpoint_region(f"https://52.94.0.10/{ACCOUNT}/q") is None
    assert provider_for("eventbridge").endpoint_region("bus") is None


def test_verify_webhook_runs_the_ping_probe(api, override_settings):
    """R-verifySubscription-02/05: a webhook is verified with the signed ping probe (the delivery feature's);
    an endpoint that refuses connections is 200 failed connect_refused and the state stays pending."""
    from devkit.destinations import free_port

    override_settings(egress_allow_cidrs="127.0.0.0/8")
    sub_id = api.subscription("webhook", f"https://127.0.0.1:{free_port()}/hook")
    body = api.verify(sub_id).json()
    assert body["outcome"] == "failed" and body["errorClass"] == "connect_refused" and body["statusCode"] == 0
    assert db_row(sub_id)["verification_state"] == "pending_verification"
