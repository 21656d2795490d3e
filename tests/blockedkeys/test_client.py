"""The typed Python client (clients/python, N73) on the ordered-delivery operations (N77), against a live
``hub api``: the ordering option, the blocked-keys list and a resume, and a refusal as a ``HubProblem``."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from devkit.live import live_api
from hub.auth.tokens import mint_token
from streaming_hub import HubProblem, connect, new_key
from streaming_hub_client.api.deliveries import list_subscription_blocked_keys, resume_subscription_blocked_key
from streaming_hub_client.api.subscriptions import get_subscription_delivery_options, put_subscription_delivery_options
from streaming_hub_client.models import (
    DeliveryOptionsRequest, OrderingRequest, OrderingRequestOnDeadLetter, ResumeBlockedKeyRequest,
    ResumeBlockedKeyRequestAction,
)
from tests.blockedkeys.conftest import block, enqueue_key
from tests.conftest import ALL_PERMISSIONS
from tests.dashboard.conftest import webhook


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with live_api({"HUB_DATABASE_URL": os.environ["HUB_DATABASE_URL"]}) as url:
        yield url


def test_the_client_sets_ordering_lists_a_blocked_key_and_resumes_it(base, api, tenant):
    hub = connect(base, mint_token(tenant=tenant, permissions=ALL_PERMISSIONS))
    sub_id = webhook(api)
    body = DeliveryOptionsRequest(ordering=OrderingRequest(on_dead_letter=OrderingRequestOnDeadLetter.BLOCK))
    put = put_subscription_delivery_options.sync(uuid.UUID(sub_id), client=hub, body=body, x_idempotency=new_key())
    assert put.ordering.key == "partitionkey" and put.ordering.on_dead_letter.value == "block"
    assert get_subscription_delivery_options.sync(uuid.UUID(sub_id), client=hub).ordering.key == "partitionkey"
    key = enqueue_key(tenant, sub_id, "acct-1", 2)
    block(tenant, sub_id, "acct-1")
    page = list_subscription_blocked_keys.sync(uuid.UUID(sub_id), client=hub)
    [item] = page.blocked_keys
    assert item.key == "acct-1" and item.waiting == 1 and item.head.job_id == key.jobs[0] and page.next_cursor == ""
    resumed = resume_subscription_blocked_key.sync(
        uuid.UUID(sub_id), client=hub, x_idempotency=new_key(),
        body=ResumeBlockedKeyRequest(key="acct-1", action=ResumeBlockedKeyRequestAction.SKIP)).resumed
    assert resumed.job_id == key.jobs[0] and resumed.action.value == "skip"
    with pytest.raises(HubProblem) as refused:
        resume_subscription_blocked_key.sync(
            uuid.UUID(sub_id), client=hub, x_idempotency=new_key(),
            body=ResumeBlockedKeyRequest(key="acct-1", action=ResumeBlockedKeyRequestAction.RETRY))
    assert refused.value.status == 409 and refused.value.code == "key_not_blocked", "its next event is on its way"
