"""The provider registry: one provider per SinkKind, with its shape, SSRF check, display mask and capabilities.

R-createSubscription-11/12 (shapes), R-X-READ-02 (endpoint_display), R-X-STATE-02 (birth state),
R-verifySubscription-02/08 (which kinds verify); the routes themselves are covered in tests/subscriptions.
"""

from __future__ import annotations

import pytest

from hub.providers.base import EndpointShapeError, stored_access
from hub.providers.registry import PROVIDERS, find_provider, kinds, kinds_where, provider_for
from hub.egress import EndpointBlocked
from hub.sinks.vocabulary import SinkKind


def test_every_kind_has_exactly_one_provider():
    assert set(PROVIDERS) == {kind.value for kind in SinkKind}
    assert all(provider.kind.value == kind for kind, provider in PROVIDERS.items())
    assert kinds() == tuple(PROVIDERS)


def test_capabilities_are_the_contracts():
    assert kinds_where("is_push") == ("webhook", "sqs", "rabbitmq", "eventbridge")
    assert kinds_where("verifies") == ("webhook", "sqs", "eventbridge")
    assert kinds_where("pings") == ("webhook",)
    assert kinds_where("takes_credential") == ("sqs", "rabbitmq", "eventbridge")
    assert kinds_where("takes_grant") == ("sqs", "eventbridge")
    assert {kind: p.birth_state for kind, p in PROVIDERS.items()} == {
        "webhook": "pending_verification", "pull": "active", "sqs": "pending_verification",
        "rabbitmq": "pending_verification", "eventbridge": "pending_verification"}


def test_ssrf_checks_apply_to_the_hosts_the_hub_calls(override_settings):
    override_settings(egress_allow_cidrs="")
    for kind, endpoint in (("webhook", "https://127.0.0.1/hook"), ("sqs", "https://127.0.0.1/123456789012/q")):
        with pytest.raises(EndpointBlocked):
            provider_for(kind).check_reachable(endpoint)
    for kind, endpoint in (("rabbitmq", "ex/key"), ("eventbridge", "bus"), ("pull", "pull://x")):
        provider_for(kind).check_reachable(endpoint)  # the host comes from the credential, or there is none


@pytest.mark.parametrize(("kind", "endpoint", "shown"), [
    (SinkKind.webhook, "https://hooks.example.com/path?token=secret", "https://hooks.example.com"),
    (SinkKind.webhook, "https://[2001:db8::1]:8443/x", "https://[2001:db8::1]:8443"),
    (SinkKind.webhook, "https://[::1/x", ""),  # unparseable: shown as nothing, never raised
    (SinkKind.sqs, "https://sqs.us-east-1.amazonaws.com/123456789012/orders.fifo", "orders.fifo"),
    (SinkKind.rabbitmq, "billing/invoices.created", "billing"),
    (SinkKind.eventbridge, "tenant-bus/Invoice", "tenant-bus"),
    (SinkKind.pull, "pull://0190f1c2-0000-7000-8000-000000000000", "pull://0190f1c2-0000-7000-8000-000000000000"),
    (SinkKind.pull, "elsewhere", ""),
])
def test_display_masks(kind, endpoint, shown):
    assert provider_for(kind).display(endpoint) == shown


@pytest.mark.parametrize(("kind", "endpoint"), [
    (SinkKind.sqs, "https://sqs.us-east-1.amazonaws.com/12345/orders"),
    (SinkKind.sqs, "http://sqs.us-east-1.amazonaws.com/123456789012/orders"),
    (SinkKind.sqs, "https://[::1/123456789012/orders"),  # urlsplit refuses it: a shape error, not a crash
    (SinkKind.rabbitmq, "/key-without-exchange"),
    (SinkKind.rabbitmq, "ex/" + "k" * 256),
    (SinkKind.eventbridge, "bus with spaces"),
])
def test_shapes_refuse(kind, endpoint):
    with pytest.raises(EndpointShapeError):
        provider_for(kind).check_shape(endpoint)


def test_destination_keys():
    """A webhook's concurrency key is its host and port (one limit per receiver); other kinds key by endpoint."""
    assert provider_for("webhook").destination_key("https://h.example.com/a") == "h.example.com:443"
    assert provider_for("webhook").destination_key("https://h.example.com:8443/b") == "h.example.com:8443"
    assert provider_for("sqs").destination_key("https://q/1/x") == "sqs:https://q/1/x"


def test_an_unknown_value_has_no_provider():
    assert find_provider("carrier-pigeon") is None
    assert find_provider("sqs") is PROVIDERS["sqs"]
    with pytest.raises(KeyError):
        provider_for("carrier-pigeon")


def test_stored_access_is_one_definition():
    """The credential wins; a grant is offered only with its ExternalId, always under the key ``externalId``."""
    opened = stored_access(credential_sealed="sealed", delegated_grant={"roleArn": "r"}, external_id="x",
                           open_credential=lambda envelope: '{"uri": "amqp://u:p@h/"}')
    assert opened.credential == {"uri": "amqp://u:p@h/"} and opened.grant is None
    granted = stored_access(credential_sealed=None, delegated_grant={"roleArn": "r", "region": "eu-west-1"},
                            external_id="x", open_credential=str)
    assert granted.credential is None and granted.grant == {"roleArn": "r", "region": "eu-west-1", "externalId": "x"}
    assert stored_access(credential_sealed=None, delegated_grant={"roleArn": "r"}, external_id=None,
                         open_credential=str).empty
