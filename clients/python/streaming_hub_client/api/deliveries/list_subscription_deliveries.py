import datetime
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery_log_response import DeliveryLogResponse
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    state: str | Unset = UNSET,
    outcome: str | Unset = UNSET,
    event_type: str | Unset = UNSET,
    event_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["state"] = state

    params["outcome"] = outcome

    params["event_type"] = event_type

    params["event_id"] = event_id

    json_since: str | Unset = UNSET
    if not isinstance(since, Unset):
        json_since = since.isoformat()
    params["since"] = json_since

    json_until: str | Unset = UNSET
    if not isinstance(until, Unset):
        json_until = until.isoformat()
    params["until"] = json_until

    params["limit"] = limit

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/subscriptions/{id}/deliveries".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeliveryLogResponse | Problem | None:
    if response.status_code == 200:
        response_200 = DeliveryLogResponse.from_dict(response.json())

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
) -> Response[DeliveryLogResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    state: str | Unset = UNSET,
    outcome: str | Unset = UNSET,
    event_type: str | Unset = UNSET,
    event_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
) -> Response[DeliveryLogResponse | Problem]:
    """List a subscription's delivery jobs

     The subscription's delivery jobs newest first, each with its event and attempts (keyset-paginated).

    Args:
        id (UUID):
        state (str | Unset):
        outcome (str | Unset):
        event_type (str | Unset):
        event_id (str | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        limit (int | Unset):
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryLogResponse | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        state=state,
        outcome=outcome,
        event_type=event_type,
        event_id=event_id,
        since=since,
        until=until,
        limit=limit,
        after=after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    state: str | Unset = UNSET,
    outcome: str | Unset = UNSET,
    event_type: str | Unset = UNSET,
    event_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
) -> DeliveryLogResponse | Problem | None:
    """List a subscription's delivery jobs

     The subscription's delivery jobs newest first, each with its event and attempts (keyset-paginated).

    Args:
        id (UUID):
        state (str | Unset):
        outcome (str | Unset):
        event_type (str | Unset):
        event_id (str | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        limit (int | Unset):
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryLogResponse | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        state=state,
        outcome=outcome,
        event_type=event_type,
        event_id=event_id,
        since=since,
        until=until,
        limit=limit,
        after=after,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    state: str | Unset = UNSET,
    outcome: str | Unset = UNSET,
    event_type: str | Unset = UNSET,
    event_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
) -> Response[DeliveryLogResponse | Problem]:
    """List a subscription's delivery jobs

     The subscription's delivery jobs newest first, each with its event and attempts (keyset-paginated).

    Args:
        id (UUID):
        state (str | Unset):
        outcome (str | Unset):
        event_type (str | Unset):
        event_id (str | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        limit (int | Unset):
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryLogResponse | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        state=state,
        outcome=outcome,
        event_type=event_type,
        event_id=event_id,
        since=since,
        until=until,
        limit=limit,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    state: str | Unset = UNSET,
    outcome: str | Unset = UNSET,
    event_type: str | Unset = UNSET,
    event_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    after: str | Unset = UNSET,
) -> DeliveryLogResponse | Problem | None:
    """List a subscription's delivery jobs

     The subscription's delivery jobs newest first, each with its event and attempts (keyset-paginated).

    Args:
        id (UUID):
        state (str | Unset):
        outcome (str | Unset):
        event_type (str | Unset):
        event_id (str | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        limit (int | Unset):
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryLogResponse | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            state=state,
            outcome=outcome,
            event_type=event_type,
            event_id=event_id,
            since=since,
            until=until,
            limit=limit,
            after=after,
        )
    ).parsed
