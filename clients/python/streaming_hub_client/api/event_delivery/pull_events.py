from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.pull_events_response import PullEventsResponse
from ...models.pull_events_response_400 import PullEventsResponse400
from ...models.pull_events_response_401 import PullEventsResponse401
from ...models.pull_events_response_403 import PullEventsResponse403
from ...models.pull_events_response_404 import PullEventsResponse404
from ...models.pull_events_response_429 import PullEventsResponse429
from ...models.pull_events_response_500 import PullEventsResponse500
from ...models.pull_events_response_503 import PullEventsResponse503
from ...models.pull_events_response_504 import PullEventsResponse504
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    subscription_id: UUID,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_subscription_id = str(subscription_id)
    params["subscription_id"] = json_subscription_id

    params["after"] = after

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    PullEventsResponse
    | PullEventsResponse400
    | PullEventsResponse401
    | PullEventsResponse403
    | PullEventsResponse404
    | PullEventsResponse429
    | PullEventsResponse500
    | PullEventsResponse503
    | PullEventsResponse504
    | None
):
    if response.status_code == 200:
        response_200 = PullEventsResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = PullEventsResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = PullEventsResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = PullEventsResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = PullEventsResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = PullEventsResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = PullEventsResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = PullEventsResponse503.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = PullEventsResponse504.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    PullEventsResponse
    | PullEventsResponse400
    | PullEventsResponse401
    | PullEventsResponse403
    | PullEventsResponse404
    | PullEventsResponse429
    | PullEventsResponse500
    | PullEventsResponse503
    | PullEventsResponse504
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    subscription_id: UUID,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Response[
    PullEventsResponse
    | PullEventsResponse400
    | PullEventsResponse401
    | PullEventsResponse403
    | PullEventsResponse404
    | PullEventsResponse429
    | PullEventsResponse500
    | PullEventsResponse503
    | PullEventsResponse504
]:
    """Pull Events

     A page of the pull subscription's events; the read acknowledges them (cursor-as-ack).

    Args:
        subscription_id (UUID):
        after (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PullEventsResponse | PullEventsResponse400 | PullEventsResponse401 | PullEventsResponse403 | PullEventsResponse404 | PullEventsResponse429 | PullEventsResponse500 | PullEventsResponse503 | PullEventsResponse504]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        after=after,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    subscription_id: UUID,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> (
    PullEventsResponse
    | PullEventsResponse400
    | PullEventsResponse401
    | PullEventsResponse403
    | PullEventsResponse404
    | PullEventsResponse429
    | PullEventsResponse500
    | PullEventsResponse503
    | PullEventsResponse504
    | None
):
    """Pull Events

     A page of the pull subscription's events; the read acknowledges them (cursor-as-ack).

    Args:
        subscription_id (UUID):
        after (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PullEventsResponse | PullEventsResponse400 | PullEventsResponse401 | PullEventsResponse403 | PullEventsResponse404 | PullEventsResponse429 | PullEventsResponse500 | PullEventsResponse503 | PullEventsResponse504
    """

    return sync_detailed(
        client=client,
        subscription_id=subscription_id,
        after=after,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    subscription_id: UUID,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Response[
    PullEventsResponse
    | PullEventsResponse400
    | PullEventsResponse401
    | PullEventsResponse403
    | PullEventsResponse404
    | PullEventsResponse429
    | PullEventsResponse500
    | PullEventsResponse503
    | PullEventsResponse504
]:
    """Pull Events

     A page of the pull subscription's events; the read acknowledges them (cursor-as-ack).

    Args:
        subscription_id (UUID):
        after (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PullEventsResponse | PullEventsResponse400 | PullEventsResponse401 | PullEventsResponse403 | PullEventsResponse404 | PullEventsResponse429 | PullEventsResponse500 | PullEventsResponse503 | PullEventsResponse504]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        after=after,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    subscription_id: UUID,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> (
    PullEventsResponse
    | PullEventsResponse400
    | PullEventsResponse401
    | PullEventsResponse403
    | PullEventsResponse404
    | PullEventsResponse429
    | PullEventsResponse500
    | PullEventsResponse503
    | PullEventsResponse504
    | None
):
    """Pull Events

     A page of the pull subscription's events; the read acknowledges them (cursor-as-ack).

    Args:
        subscription_id (UUID):
        after (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PullEventsResponse | PullEventsResponse400 | PullEventsResponse401 | PullEventsResponse403 | PullEventsResponse404 | PullEventsResponse429 | PullEventsResponse500 | PullEventsResponse503 | PullEventsResponse504
    """

    return (
        await asyncio_detailed(
            client=client,
            subscription_id=subscription_id,
            after=after,
            limit=limit,
        )
    ).parsed
