from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_subscriptions_response import ListSubscriptionsResponse
from ...models.list_subscriptions_sink_kind import ListSubscriptionsSinkKind
from ...models.list_subscriptions_verification_state import (
    ListSubscriptionsVerificationState,
)
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    sink_kind: ListSubscriptionsSinkKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
    name: str | Unset = UNSET,
    enabled: bool | Unset = UNSET,
    verification_state: ListSubscriptionsVerificationState | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_sink_kind: str | Unset = UNSET
    if not isinstance(sink_kind, Unset):
        json_sink_kind = sink_kind.value

    params["sink_kind"] = json_sink_kind

    params["limit"] = limit

    params["after"] = after

    params["name"] = name

    params["enabled"] = enabled

    json_verification_state: str | Unset = UNSET
    if not isinstance(verification_state, Unset):
        json_verification_state = verification_state.value

    params["verification_state"] = json_verification_state

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/subscriptions",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ListSubscriptionsResponse | Problem | None:
    if response.status_code == 200:
        response_200 = ListSubscriptionsResponse.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = Problem.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ListSubscriptionsResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    sink_kind: ListSubscriptionsSinkKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
    name: str | Unset = UNSET,
    enabled: bool | Unset = UNSET,
    verification_state: ListSubscriptionsVerificationState | Unset = UNSET,
) -> Response[ListSubscriptionsResponse | Problem]:
    """List Subscriptions

     The tenant's live subscriptions, newest first, keyset-paginated.

    Args:
        sink_kind (ListSubscriptionsSinkKind | Unset):
        limit (int | Unset):
        after (str | Unset):
        name (str | Unset):
        enabled (bool | Unset):
        verification_state (ListSubscriptionsVerificationState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListSubscriptionsResponse | Problem]
    """

    kwargs = _get_kwargs(
        sink_kind=sink_kind,
        limit=limit,
        after=after,
        name=name,
        enabled=enabled,
        verification_state=verification_state,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    sink_kind: ListSubscriptionsSinkKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
    name: str | Unset = UNSET,
    enabled: bool | Unset = UNSET,
    verification_state: ListSubscriptionsVerificationState | Unset = UNSET,
) -> ListSubscriptionsResponse | Problem | None:
    """List Subscriptions

     The tenant's live subscriptions, newest first, keyset-paginated.

    Args:
        sink_kind (ListSubscriptionsSinkKind | Unset):
        limit (int | Unset):
        after (str | Unset):
        name (str | Unset):
        enabled (bool | Unset):
        verification_state (ListSubscriptionsVerificationState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListSubscriptionsResponse | Problem
    """

    return sync_detailed(
        client=client,
        sink_kind=sink_kind,
        limit=limit,
        after=after,
        name=name,
        enabled=enabled,
        verification_state=verification_state,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    sink_kind: ListSubscriptionsSinkKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
    name: str | Unset = UNSET,
    enabled: bool | Unset = UNSET,
    verification_state: ListSubscriptionsVerificationState | Unset = UNSET,
) -> Response[ListSubscriptionsResponse | Problem]:
    """List Subscriptions

     The tenant's live subscriptions, newest first, keyset-paginated.

    Args:
        sink_kind (ListSubscriptionsSinkKind | Unset):
        limit (int | Unset):
        after (str | Unset):
        name (str | Unset):
        enabled (bool | Unset):
        verification_state (ListSubscriptionsVerificationState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListSubscriptionsResponse | Problem]
    """

    kwargs = _get_kwargs(
        sink_kind=sink_kind,
        limit=limit,
        after=after,
        name=name,
        enabled=enabled,
        verification_state=verification_state,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    sink_kind: ListSubscriptionsSinkKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
    name: str | Unset = UNSET,
    enabled: bool | Unset = UNSET,
    verification_state: ListSubscriptionsVerificationState | Unset = UNSET,
) -> ListSubscriptionsResponse | Problem | None:
    """List Subscriptions

     The tenant's live subscriptions, newest first, keyset-paginated.

    Args:
        sink_kind (ListSubscriptionsSinkKind | Unset):
        limit (int | Unset):
        after (str | Unset):
        name (str | Unset):
        enabled (bool | Unset):
        verification_state (ListSubscriptionsVerificationState | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListSubscriptionsResponse | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            sink_kind=sink_kind,
            limit=limit,
            after=after,
            name=name,
            enabled=enabled,
            verification_state=verification_state,
        )
    ).parsed
