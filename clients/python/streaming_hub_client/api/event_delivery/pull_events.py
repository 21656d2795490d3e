from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.pull_events_response import PullEventsResponse
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
) -> Problem | PullEventsResponse | None:
    if response.status_code == 200:
        response_200 = PullEventsResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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
) -> Response[Problem | PullEventsResponse]:
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
) -> Response[Problem | PullEventsResponse]:
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
        Response[Problem | PullEventsResponse]
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
) -> Problem | PullEventsResponse | None:
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
        Problem | PullEventsResponse
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
) -> Response[Problem | PullEventsResponse]:
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
        Response[Problem | PullEventsResponse]
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
) -> Problem | PullEventsResponse | None:
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
        Problem | PullEventsResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            subscription_id=subscription_id,
            after=after,
            limit=limit,
        )
    ).parsed
