"""``AsyncHub``: the idiomatic layer's calls, awaited (``async with AsyncHub(url, token) as hub``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

from streaming_hub.resources import after, apages, create_request, expect
from streaming_hub.session import connect
from streaming_hub_client import AuthenticatedClient
from streaming_hub_client.api.deliveries import list_subscription_blocked_keys, list_subscription_deliveries
from streaming_hub_client.api.subscriptions import (
    create_subscription, delete_subscription, get_subscription, list_subscriptions, ping_subscription,
)
from streaming_hub_client.models import (
    BlockedKey, BlockedKeysPage, CreateSubscriptionResponse, DeliveryJobRecord, DeliveryLogResponse,
    ListSubscriptionsResponse, ProbeResult, SinkKind, SubscriptionRead, SubscriptionResponse,
)


class AsyncSubscriptions:
    """``hub.subscriptions`` of an :class:`AsyncHub`: the calls of :class:`streaming_hub.Subscriptions`, awaited."""

    def __init__(self, client: AuthenticatedClient) -> None:
        self._client = client

    async def create(self, *, name: str, sink_kind: SinkKind | str, endpoint: str | None = None,
                     idempotency_key: str | None = None, **fields: Any) -> CreateSubscriptionResponse:
        answer = await create_subscription.asyncio_detailed(
            client=self._client, x_idempotency=idempotency_key or "",
            body=create_request(name, sink_kind, endpoint, fields))
        return expect(answer, CreateSubscriptionResponse)

    async def get(self, subscription_id: UUID | str) -> SubscriptionResponse:
        answer = await get_subscription.asyncio_detailed(UUID(str(subscription_id)), client=self._client)
        return expect(answer, SubscriptionResponse)

    def list(self, *, limit: int = 50) -> AsyncIterator[SubscriptionRead]:
        async def fetch(cursor: str | None) -> tuple[list[SubscriptionRead], str]:
            page = expect(await list_subscriptions.asyncio_detailed(client=self._client, limit=limit,
                                                                     after=after(cursor)), ListSubscriptionsResponse)
            return page.subscriptions, page.next_cursor

        return apages(fetch)

    async def ping(self, subscription_id: UUID | str) -> ProbeResult:
        answer = await ping_subscription.asyncio_detailed(UUID(str(subscription_id)), client=self._client)
        return expect(answer, ProbeResult)

    async def delete(self, subscription_id: UUID | str, *, idempotency_key: str | None = None) -> None:
        await delete_subscription.asyncio_detailed(UUID(str(subscription_id)), client=self._client,
                                                   x_idempotency=idempotency_key or "")


class AsyncDeliveries:
    """``hub.deliveries`` of an :class:`AsyncHub`: async iterators over the delivery log and blocked keys."""

    def __init__(self, client: AuthenticatedClient) -> None:
        self._client = client

    def log(self, subscription_id: UUID | str, *, limit: int = 100) -> AsyncIterator[DeliveryJobRecord]:
        async def fetch(cursor: str | None) -> tuple[list[DeliveryJobRecord], str]:
            page = expect(await list_subscription_deliveries.asyncio_detailed(
                UUID(str(subscription_id)), client=self._client, limit=limit, after=after(cursor)), DeliveryLogResponse)
            return page.deliveries, page.next_cursor

        return apages(fetch)

    def blocked_keys(self, subscription_id: UUID | str, *, limit: int = 100) -> AsyncIterator[BlockedKey]:
        async def fetch(cursor: str | None) -> tuple[list[BlockedKey], str]:
            page = expect(await list_subscription_blocked_keys.asyncio_detailed(
                UUID(str(subscription_id)), client=self._client, limit=limit, after=after(cursor)), BlockedKeysPage)
            return page.blocked_keys, page.next_cursor

        return apages(fetch)


class AsyncHub:
    """A client of the hub for asyncio code; use it as ``async with AsyncHub(base_url, token) as hub``."""

    def __init__(self, base_url: str, token: str, **options: Any) -> None:
        self.client = connect(base_url, token, **options)
        self.subscriptions = AsyncSubscriptions(self.client)
        self.deliveries = AsyncDeliveries(self.client)

    async def aclose(self) -> None:
        await self.client.get_async_httpx_client().aclose()

    async def __aenter__(self) -> AsyncHub:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()
