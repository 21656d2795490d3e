"""The per-kind registry: one spec per SinkKind, with its shape, SSRF target and display mask.

R-createSubscription-11/12 (shapes), R-X-READ-02 (endpoint_display); the routes themselves are
covered in tests/subscriptions.
"""

from __future__ import annotations

import pytest

from hub.sinks.kinds import KINDS, EndpointShapeError, SsrfTarget, spec_for
from hub.sinks.vocabulary import PUSH_KINDS, SinkKind


def test_every_kind_has_exactly_one_spec():
    assert set(KINDS) == set(SinkKind)
    assert all(spec.kind is kind for kind, spec in KINDS.items())
    assert {kind for kind, spec in KINDS.items() if spec.takes_endpoint} == set(PUSH_KINDS)


def test_ssrf_targets():
    assert {kind: spec.ssrf_target for kind, spec in KINDS.items()} == {
        SinkKind.webhook: SsrfTarget.url_host, SinkKind.sqs: SsrfTarget.queue_url_host,
        SinkKind.pull: SsrfTarget.none, SinkKind.rabbitmq: SsrfTarget.none, SinkKind.eventbridge: SsrfTarget.none,
    }


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
    assert KINDS[kind].display(endpoint) == shown


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
        KINDS[kind].check_shape(endpoint)


def test_spec_for_an_unknown_value_is_none():
    assert spec_for("carrier-pigeon") is None
    assert spec_for("sqs") is KINDS[SinkKind.sqs]
