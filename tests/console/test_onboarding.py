"""Queue-kind onboarding in Chromium (issue 41): an SQS subscription created in the console and brought
to ``active`` by a delegated grant against moto; a RabbitMQ credential probed; secrets never shown
again nor kept; another tenant's subscription is a 404 on the connect page."""

from __future__ import annotations

import json
import uuid

import httpx

from hub.auth.tokens import mint_token
from tests.conftest import ALL_PERMISSIONS
from tests.console.conftest import Console, fresh_tenant
from devkit.destinations import ACCOUNT, aws, aws_destinations, rabbit, unique  # noqa: F401 (fixtures)


def _role_from(trust_policy: str, queue_name: str) -> str:
    """What the customer does in their account: a role from the page's trust policy, allowed to send."""
    iam, role_name = aws("iam"), unique("hub-console")
    role = iam.create_role(RoleName=role_name, AssumeRolePolicyDocument=trust_policy)["Role"]
    iam.put_role_policy(RoleName=role_name, PolicyName="deliver", PolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sqs:SendMessage",
                                                "Resource": f"arn:aws:sqs:us-east-1:{ACCOUNT}:{queue_name}"}]}))
    return role["Arn"]


def _create_queue_subscription(console: Console, kind: str, name: str, endpoint: str) -> str:
    console.goto("#/subscriptions/new-queue")
    page = console.page
    page.select_option("#queue-kind", kind)
    page.fill("#queue-name", name)
    page.fill("#queue-endpoint", endpoint)
    page.get_by_role("button", name="Create").click()
    page.locator("h1", has_text=f"Connect {name}").wait_for()
    return page.url.rsplit("/", 2)[-2]


def test_an_sqs_subscription_is_onboarded_by_delegated_grant(console: Console, tenant_token: str,
                                                            aws_destinations) -> None:  # noqa: ANN001
    queue_url = aws_destinations.queue()
    console.open(tenant_token)
    sub_id = _create_queue_subscription(console, "sqs", "orders queue", queue_url)
    page = console.page
    policy = page.locator("#trust-policy")
    policy.wait_for()
    external_id = page.locator("#external-id").inner_text()
    statement = json.loads(policy.inner_text())["Statement"][0]
    assert statement["Condition"] == {"StringEquals": {"sts:ExternalId": external_id}}
    link = page.locator("#quick-create")
    assert link.get_attribute("href").startswith("https://us-east-1.console.aws.amazon.com/cloudformation/")
    assert external_id in link.get_attribute("href") and link.get_attribute("rel") == "noopener noreferrer"
    page.get_by_role("button", name="Copy").last.click()
    page.locator("#notice", has_text="Trust policy").wait_for()
    assert page.locator("#grant-region").input_value() == "us-east-1"

    page.fill("#grant-roleArn", _role_from(policy.inner_text(), queue_url.rsplit("/", 1)[1]))
    page.fill("#grant-destination", queue_url)
    page.get_by_role("button", name="Register the grant").click()
    page.locator("#grant-registered").wait_for()
    assert page.evaluate("document.activeElement.id") == "connect-verify"
    page.keyboard.press("Enter")
    result = page.locator("#verify-result dl")
    result.wait_for()
    assert "ok" in result.inner_text()
    assert page.locator("#connect-state").inner_text() == "active"
    console.shot("connect-sqs")
    answer = httpx.get(f"{console.base}/v1/subscriptions/{sub_id}", headers={"Authorization": f"Bearer {tenant_token}"})
    assert answer.json()["subscription"]["credential_kind"] == "delegated_grant"
    assert answer.json()["subscription"]["verification_state"] == "active"


def test_a_rabbitmq_credential_is_probed_and_never_shown_again(console: Console, tenant_token: str,
                                                              rabbit) -> None:  # noqa: ANN001
    exchange, _queue = rabbit.exchange_with_queue()
    storage: list[str] = []
    console.page.on("request", lambda request: storage.append(request.url))
    console.open(tenant_token)
    _create_queue_subscription(console, "rabbitmq", "orders exchange", f"{exchange}/orders.created")
    page = console.page
    assert page.locator("#grant").count() == 0  # no delegated grant for a broker
    wrong = rabbit.url.replace("://", "://nobody-", 1)
    page.fill("#credential-uri", wrong)
    page.get_by_role("button", name="Probe and store").click()
    page.locator("#credential-refused").wait_for()
    assert "failed" in page.locator("#probe-result dl").inner_text()
    page.fill("#credential-uri", rabbit.url)
    page.get_by_role("button", name="Probe and store").click()
    page.locator("#credential-stored").wait_for()
    assert page.locator("#connect-state").inner_text() == "active"
    console.shot("connect-rabbitmq")
    assert page.locator("#credential-uri").input_value() == ""
    credentials = rabbit.url.split("://", 1)[1].split("@", 1)[0]  # user:password
    assert credentials not in page.content() and "nobody-" not in page.content()
    assert page.evaluate("sessionStorage.length") == 1 and page.evaluate("localStorage.length") == 0
    assert not any(credentials in url for url in storage)


def test_the_queue_form_shows_the_seeds_validation_message(console: Console, tenant_token: str) -> None:
    console.expect_failed_loads(422)
    console.open(tenant_token, "#/subscriptions/new-queue")
    page = console.page
    page.select_option("#queue-kind", "eventbridge")
    assert page.locator("label[for=queue-endpoint]").inner_text() == "Event bus name"
    page.fill("#queue-name", "bus")
    page.fill("#queue-endpoint", "https://events.example.com/bus")
    page.get_by_role("button", name="Create").click()
    assert "endpoint" in page.locator("#queue-result .error").inner_text()
    console.shot("queue-create")


def test_another_tenants_subscription_is_a_404_on_the_connect_page(console: Console, tenant_token: str) -> None:
    answer = httpx.post(f"{console.base}/v1/subscriptions", json={"sink_kind": "rabbitmq", "name": "x", "endpoint": "x/y"},
                        headers={"Authorization": f"Bearer {tenant_token}", "X-Idempotency": str(uuid.uuid4())}, timeout=30)
    assert answer.status_code == 201, answer.text
    console.expect_failed_loads(404)
    stranger = mint_token(tenant=fresh_tenant(), permissions=ALL_PERMISSIONS)
    console.open(stranger, f"#/subscriptions/{answer.json()['subscription']['id']}/connect")
    console.page.locator("section.error[data-status='404']").wait_for()
