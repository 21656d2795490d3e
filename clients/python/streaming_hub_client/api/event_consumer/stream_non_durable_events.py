from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    filter_groups: str | Unset = UNSET,
    previous_filter_groups: str | Unset = UNSET,
    reconnect_token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    params: dict[str, Any] = {}

    params["filter_groups"] = filter_groups

    params["previous_filter_groups"] = previous_filter_groups

    params["reconnect_token"] = reconnect_token

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1beta/events/stream",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

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

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    filter_groups: str | Unset = UNSET,
    previous_filter_groups: str | Unset = UNSET,
    reconnect_token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Response[Problem | str]:
    """Stream Events

     Streams events using a non-durable queue (Server-Sent Events).

    Args:
        filter_groups (str | Unset):
        previous_filter_groups (str | Unset):
        reconnect_token (str | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        filter_groups=filter_groups,
        previous_filter_groups=previous_filter_groups,
        reconnect_token=reconnect_token,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    filter_groups: str | Unset = UNSET,
    previous_filter_groups: str | Unset = UNSET,
    reconnect_token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Problem | str | None:
    """Stream Events

     Streams events using a non-durable queue (Server-Sent Events).

    Args:
        filter_groups (str | Unset):
        previous_filter_groups (str | Unset):
        reconnect_token (str | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        client=client,
        filter_groups=filter_groups,
        previous_filter_groups=previous_filter_groups,
        reconnect_token=reconnect_token,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    filter_groups: str | Unset = UNSET,
    previous_filter_groups: str | Unset = UNSET,
    reconnect_token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Response[Problem | str]:
    """Stream Events

     Streams events using a non-durable queue (Server-Sent Events).

    Args:
        filter_groups (str | Unset):
        previous_filter_groups (str | Unset):
        reconnect_token (str | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        filter_groups=filter_groups,
        previous_filter_groups=previous_filter_groups,
        reconnect_token=reconnect_token,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    filter_groups: str | Unset = UNSET,
    previous_filter_groups: str | Unset = UNSET,
    reconnect_token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Problem | str | None:
    """Stream Events

     Streams events using a non-durable queue (Server-Sent Events).

    Args:
        filter_groups (str | Unset):
        previous_filter_groups (str | Unset):
        reconnect_token (str | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            client=client,
            filter_groups=filter_groups,
            previous_filter_groups=previous_filter_groups,
            reconnect_token=reconnect_token,
            last_event_id=last_event_id,
        )
    ).parsed
