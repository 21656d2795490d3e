"""The deliverability rule (every verification state, enabled or not, deleted or not) and the delivery view
a subscription row becomes: destination, timeout, unsealed secrets and headers, access, rate limit, filter."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import pytest

from hub.providers.webhook.headers import seal_headers
from hub.secrets import mint_signing_secret, seal
from hub.sinks.vocabulary import SinkKind
from hub.subscription.deliverability import BY_VERIFICATION, Deliverability, by_verification, deliverability
from hub.subscription.delivery_view import VIEW_COLUMNS, DeliveryView, delivery_view
from hub.subscription.schemas import VerificationState
from hub.subscription.service import secret_context

NOW = datetime(2026, 12, 6, 8, 0, tzinfo=UTC)
HOLDS = {VerificationState.pending_verification: Deliverability.unverified,
         VerificationState.degraded: Deliverability.degraded}


def test_every_verification_state_has_its_entry_and_only_active_delivers():
    assert set(BY_VERIFICATION) == {state.value for state in VerificationState}
    assert by_verification(VerificationState.active) is Deliverability.deliverable
    for state, reason in HOLDS.items():
        assert by_verification(state.value) is reason
        assert not reason.ok and not reason.ends_jobs and reason.detail


def test_a_state_that_is_no_verification_state_holds_the_jobs():
    assert by_verification("disabled") is Deliverability.unverified
    assert by_verification("") is Deliverability.unverified


@pytest.mark.parametrize("state", list(VerificationState))
@pytest.mark.parametrize("enabled", [True, False])
@pytest.mark.parametrize("deleted", [False, True])
def test_the_whole_rule_for_every_state_enabled_and_deleted(state: VerificationState, enabled: bool,
                                                            deleted: bool) -> None:
    got = deliverability(deleted=deleted, enabled=enabled, verification_state=state.value)
    if deleted:
        expected = Deliverability.deleted
    elif not enabled:
        expected = Deliverability.disabled
    else:
        expected = HOLDS.get(state, Deliverability.deliverable)
    assert got is expected
    assert got.ok == (not deleted and enabled and state is VerificationState.active)
    assert got.ends_jobs == (deleted or not enabled)


def test_each_reason_reads_as_a_sentence_and_only_deliverable_has_none():
    assert Deliverability.deliverable.detail == ""
    assert Deliverability.deleted.detail == "the subscription is deleted"
    assert Deliverability.disabled.detail == "the subscription is disabled"
    assert all(reason.detail for reason in Deliverability if not reason.ok)


def row(sub_id: uuid.UUID, **values: Any) -> list[Any]:
    """A VIEW_COLUMNS row: a live, enabled, active webhook subscription unless ``values`` say otherwise."""
    base = {"id": sub_id, "tenant_id": "t-view", "sink_kind": "webhook", "endpoint": "https://hooks.example/in",
            "enabled": True, "verification_state": "active"}
    base.update(values)
    return [base.get(name) for name in VIEW_COLUMNS]


def sealed(sub_id: uuid.UUID, slot: str, value: str) -> str:
    return seal(value, context=secret_context(sub_id, slot))


def test_a_webhook_row_becomes_its_view_with_the_secrets_and_headers_unsealed():
    sub_id = uuid.uuid4()
    current, previous = mint_signing_secret(), mint_signing_secret()
    headers = seal_headers([{"name": "X-Team", "value": "ledger", "secret": False},
                            {"name": "Authorization", "value": "Bearer s3cret", "secret": True}], sub_id)
    assert "s3cret" not in orjson.dumps(headers).decode()
    view = delivery_view(row(sub_id, timeout_ms=2500, secret_current=sealed(sub_id, "secret_current", current),
                             secret_previous=sealed(sub_id, "secret_previous", previous),
                             secret_overlap_until=NOW + timedelta(hours=1), custom_headers=headers,
                             rate_limit_per_second=7, payload_filter={"data.kind": "card"}), NOW)
    assert view.id == sub_id and view.tenant_id == "t-view"
    assert view.destination.kind is SinkKind.webhook and view.destination.target == "https://hooks.example/in"
    assert view.timeout_seconds == 2.5
    assert view.signing_secrets == (current, previous)
    assert view.headers == (("X-Team", "ledger"), ("Authorization", "Bearer s3cret"))
    assert view.access.empty
    assert view.rate_limit_per_second == 7 and view.payload_filter == {"data.kind": "card"}
    assert view.deliverable and view.deliverability is Deliverability.deliverable and view.problem == ""


def test_the_previous_secret_signs_only_while_the_overlap_lasts_and_the_timeout_defaults():
    sub_id = uuid.uuid4()
    current = mint_signing_secret()
    view = delivery_view(row(sub_id, secret_current=sealed(sub_id, "secret_current", current),
                             secret_previous=sealed(sub_id, "secret_previous", mint_signing_secret()),
                             secret_overlap_until=NOW - timedelta(seconds=1)), NOW)
    assert view.signing_secrets == (current,)
    assert view.timeout_seconds == 10.0 and view.rate_limit_per_second is None and view.payload_filter is None


def test_the_view_is_immutable_and_has_no_instance_dict():
    view = delivery_view(row(uuid.uuid4()), NOW)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.timeout_seconds = 1.0  # type: ignore[misc]
    assert not hasattr(view, "__dict__") and "__slots__" in DeliveryView.__dict__


@pytest.mark.parametrize("state", list(VerificationState))
@pytest.mark.parametrize("enabled", [True, False])
def test_the_view_carries_the_rule_and_opens_nothing_it_will_not_send(state: VerificationState,
                                                                      enabled: bool) -> None:
    """A sealed value that cannot be opened matters only to a subscription that is delivered to."""
    sub_id = uuid.uuid4()
    view = delivery_view(row(sub_id, enabled=enabled, verification_state=state.value,
                             secret_current=sealed(uuid.uuid4(), "secret_current", "whsec_x")), NOW)
    assert view.deliverability is deliverability(deleted=False, enabled=enabled, verification_state=state.value)
    if view.deliverable:
        assert view.problem == "the subscription's signing secret could not be opened"
    else:
        assert view.problem == "" and view.signing_secrets == ()


def test_a_deleted_row_is_not_deliverable_and_ends_its_jobs():
    view = delivery_view(row(uuid.uuid4(), deleted_at=NOW), NOW)
    assert view.deliverability is Deliverability.deleted and view.deliverability.ends_jobs


def test_a_queue_row_carries_its_unsealed_credential_or_its_grant_and_no_signing_secret():
    sub_id = uuid.uuid4()
    credential = {"access_key_id": "AKIAVIEW", "secret_access_key": "s"}
    view = delivery_view(row(sub_id, sink_kind="sqs", endpoint="https://sqs.eu-west-1.amazonaws.com/1/q",
                             secret_current=sealed(sub_id, "secret_current", "whsec_unused"),
                             credential_sealed=sealed(sub_id, "credential", orjson.dumps(credential).decode())), NOW)
    assert view.destination.kind is SinkKind.sqs and view.access.credential == credential
    assert view.signing_secrets == () and view.problem == ""
    granted = delivery_view(row(sub_id, sink_kind="sqs", delegated_grant={"role_arn": "arn:aws:iam::1:role/r"},
                                external_id="ext-1"), NOW)
    assert granted.access.grant == {"role_arn": "arn:aws:iam::1:role/r", "externalId": "ext-1"}


def test_an_unopenable_credential_or_header_or_an_unknown_kind_is_the_views_problem():
    sub_id = uuid.uuid4()
    foreign = sealed(uuid.uuid4(), "credential", "{}")
    view = delivery_view(row(sub_id, sink_kind="sqs", credential_sealed=foreign), NOW)
    assert view.problem == "the subscription's credential could not be opened" and view.deliverable
    headers = seal_headers([{"name": "X-Key", "value": "v", "secret": True}], uuid.uuid4())
    view = delivery_view(row(sub_id, custom_headers=headers), NOW)
    assert view.problem == "a static header of the subscription could not be opened"
    view = delivery_view(row(sub_id, sink_kind="carrier-pigeon"), NOW)
    assert view.problem == "the subscription's sink kind 'carrier-pigeon' is not known"
    assert view.destination.kind == "carrier-pigeon"
