"""The idiomatic layer: ``Hub(base_url, token).subscriptions.create(...)`` and its async twin, ``AsyncHub``.

Each call returns the operation's success model, typed as such, or raises :class:`HubProblem` carrying the
answer's problem+json; a mutation gets an idempotency key unless you pass ``idempotency_key``; listings are
iterators that follow ``next_cursor`` page after page."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar
from uuid import UUID

from streaming_hub.problems import problem_of
from streaming_hub.session import connect
from streaming_hub_client import AuthenticatedClient
from streaming_hub_client.api.deliveries import list_subscription_blocked_keys, list_subscription_deliveries
from streaming_hub_client.api.subscriptions import (
    create_subscription, delete_subscription, get_subscription, list_subscriptions, ping_subscription,
)
from streaming_hub_client.models import (
    BlockedKey, BlockedKeysPage, CreateSubscriptionRequest, CreateSubscriptionResponse, DeliveryJobRecord,
    DeliveryLogResponse, ListSubscriptionsResponse, ProbeResult, SinkKind, SubscriptionRead, SubscriptionResponse,
)
from streaming_hub_client.types import UNSET, Response

T = TypeVar("T")


def expect(response: Response[Any], model: type[T]) -> T:
    """RESPONSE's parsed body as MODEL; an answer of any other shape raises :class:`HubProblem`."""
    if isinstance(response.parsed, model):
        return response.parsed
    raise problem_of(int(response.status_code), response.content)


def create_request(name: str, sink_kind: SinkKind | str, endpoint: str | None, fields: dict[str, Any]
                   ) -> CreateSubscriptionRequest:
    return CreateSubscriptionRequest(name=name, sink_kind=SinkKind(sink_kind),
                                     endpoint=UNSET if endpoint is None else endpoint, **fields)


def pages(fetch: Callable[[str | None], tuple[list[T], str]]) -> Iterator[T]:
    """Every item of the pages FETCH(cursor) returns, until a page's ``next_cursor`` is empty."""
    cursor: str | None = None
    while True:
        items, cursor = fetch(cursor)
        yield from items
        if not cursor:
            return


async def apages(fetch: Callable[[str | None], Awaitable[tuple[list[T], str]]]) -> AsyncIterator[T]:
    """:func:`pages` for an async FETCH."""
    cursor: str | None = None
    while True:
        items, cursor = await fetch(cursor)
        for item in items:
            yield item
        if not cursor:
            return


def after(cursor: str | None) -> str | Any:
    return UNSET if cursor is None else cursor


class Subscriptions:
    """``hub.subscriptions``: create, read, list, ping and delete subscriptions."""

    def __init__(self, client: AuthenticatedClient) -> None:
        self._client = client

    def create(self, *, name: str, sink_kind: SinkKind | str, endpoint: str | None = None,
               idempotency_key: str | None = None, **fields: Any) -> CreateSubscriptionResponse:
        """A new subscription and its signing secret (FIELDS: the request's other fields, e.g. event_types)."""
        answer = create_subscription.sync_detailed(client=self._client, x_idempotency=idempotency_key or "",
                                                   body=create_request(name, sink_kind, endpoint, fields))
        return expect(answer, CreateSubscriptionResponse)

    def get(self, subscription_id: UUID | str) -> SubscriptionResponse:
        return expect(get_subscription.sync_detailed(UUID(str(subscription_id)), client=self._client),
                      SubscriptionResponse)

    def list(self, *, limit: int = 50) -> Iterator[SubscriptionRead]:
        """Every subscription of the tenant, a page of LIMIT at a time."""
        def fetch(cursor: str | None) -> tuple[list[SubscriptionRead], str]:
            page = expect(list_subscriptions.sync_detailed(client=self._client, limit=limit, after=after(cursor)),
                          ListSubscriptionsResponse)
            return page.subscriptions, page.next_cursor

        return pages(fetch)

    def ping(self, subscription_id: UUID | str) -> ProbeResult:
        return expect(ping_subscription.sync_detailed(UUID(str(subscription_id)), client=self._client), ProbeResult)

    def delete(self, subscription_id: UUID | str, *, idempotency_key: str | None = None) -> None:
        delete_subscription.sync_detailed(UUID(str(subscription_id)), client=self._client,
                                          x_idempotency=idempotency_key or "")


class Deliveries:
    """``hub.deliveries``: a subscription's delivery log and its blocked ordered keys, as iterators."""

    def __init__(self, client: AuthenticatedClient) -> None:
        self._client = client

    def log(self, subscription_id: UUID | str, *, limit: int = 100) -> Iterator[DeliveryJobRecord]:
        def fetch(cursor: str | None) -> tuple[list[DeliveryJobRecord], str]:
            page = expect(list_subscription_deliveries.sync_detailed(
                UUID(str(subscription_id)), client=self._client, limit=limit, after=after(cursor)), DeliveryLogResponse)
            return page.deliveries, page.next_cursor

        return pages(fetch)

    def blocked_keys(self, subscription_id: UUID | str, *, limit: int = 100) -> Iterator[BlockedKey]:
        def fetch(cursor: str | None) -> tuple[list[BlockedKey], str]:
            page = expect(list_subscription_blocked_keys.sync_detailed(
                UUID(str(subscription_id)), client=self._client, limit=limit, after=after(cursor)), BlockedKeysPage)
            return page.blocked_keys, page.next_cursor

        return pages(fetch)


class Hub:
    """A client of the hub at BASE_URL with the bearer TOKEN (OPTIONS: :func:`streaming_hub.connect`'s)."""

    def __init__(self, base_url: str, token: str, **options: Any) -> None:
        self.client = connect(base_url, token, **options)
        self.subscriptions = Subscriptions(self.client)
        self.deliveries = Deliveries(self.client)

    def close(self) -> None:
        self.client.get_httpx_client().close()

    def __enter__(self) -> Hub:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
