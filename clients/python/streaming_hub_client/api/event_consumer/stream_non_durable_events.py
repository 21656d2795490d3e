from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.stream_non_durable_events_response_401 import (
    StreamNonDurableEventsResponse401,
)
from ...models.stream_non_durable_events_response_403 import (
    StreamNonDurableEventsResponse403,
)
from ...models.stream_non_durable_events_response_404 import (
    StreamNonDurableEventsResponse404,
)
from ...models.stream_non_durable_events_response_422 import (
    StreamNonDurableEventsResponse422,
)
from ...models.stream_non_durable_events_response_500 import (
    StreamNonDurableEventsResponse500,
)
from ...models.stream_non_durable_events_response_503 import (
    StreamNonDurableEventsResponse503,
)
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
) -> (
    StreamNonDurableEventsResponse401
    | StreamNonDurableEventsResponse403
    | StreamNonDurableEventsResponse404
    | StreamNonDurableEventsResponse422
    | StreamNonDurableEventsResponse500
    | StreamNonDurableEventsResponse503
    | str
    | None
):
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 401:
        response_401 = StreamNonDurableEventsResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = StreamNonDurableEventsResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = StreamNonDurableEventsResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = StreamNonDurableEventsResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = StreamNonDurableEventsResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = StreamNonDurableEventsResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    StreamNonDurableEventsResponse401
    | StreamNonDurableEventsResponse403
    | StreamNonDurableEventsResponse404
    | StreamNonDurableEventsResponse422
    | StreamNonDurableEventsResponse500
    | StreamNonDurableEventsResponse503
    | str
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
    filter_groups: str | Unset = UNSET,
    previous_filter_groups: str | Unset = UNSET,
    reconnect_token: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
) -> Response[
    StreamNonDurableEventsResponse401
    | StreamNonDurableEventsResponse403
    | StreamNonDurableEventsResponse404
    | StreamNonDurableEventsResponse422
    | StreamNonDurableEventsResponse500
    | StreamNonDurableEventsResponse503
    | str
]:
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
        Response[StreamNonDurableEventsResponse401 | StreamNonDurableEventsResponse403 | StreamNonDurableEventsResponse404 | StreamNonDurableEventsResponse422 | StreamNonDurableEventsResponse500 | StreamNonDurableEventsResponse503 | str]
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
) -> (
    StreamNonDurableEventsResponse401
    | StreamNonDurableEventsResponse403
    | StreamNonDurableEventsResponse404
    | StreamNonDurableEventsResponse422
    | StreamNonDurableEventsResponse500
    | StreamNonDurableEventsResponse503
    | str
    | None
):
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
        StreamNonDurableEventsResponse401 | StreamNonDurableEventsResponse403 | StreamNonDurableEventsResponse404 | StreamNonDurableEventsResponse422 | StreamNonDurableEventsResponse500 | StreamNonDurableEventsResponse503 | str
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
) -> Response[
    StreamNonDurableEventsResponse401
    | StreamNonDurableEventsResponse403
    | StreamNonDurableEventsResponse404
    | StreamNonDurableEventsResponse422
    | StreamNonDurableEventsResponse500
    | StreamNonDurableEventsResponse503
    | str
]:
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
        Response[StreamNonDurableEventsResponse401 | StreamNonDurableEventsResponse403 | StreamNonDurableEventsResponse404 | StreamNonDurableEventsResponse422 | StreamNonDurableEventsResponse500 | StreamNonDurableEventsResponse503 | str]
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
) -> (
    StreamNonDurableEventsResponse401
    | StreamNonDurableEventsResponse403
    | StreamNonDurableEventsResponse404
    | StreamNonDurableEventsResponse422
    | StreamNonDurableEventsResponse500
    | StreamNonDurableEventsResponse503
    | str
    | None
):
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
        StreamNonDurableEventsResponse401 | StreamNonDurableEventsResponse403 | StreamNonDurableEventsResponse404 | StreamNonDurableEventsResponse422 | StreamNonDurableEventsResponse500 | StreamNonDurableEventsResponse503 | str
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
