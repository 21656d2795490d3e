from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.stream_durable_events_response_401 import StreamDurableEventsResponse401
from ...models.stream_durable_events_response_403 import StreamDurableEventsResponse403
from ...models.stream_durable_events_response_404 import StreamDurableEventsResponse404
from ...models.stream_durable_events_response_422 import StreamDurableEventsResponse422
from ...models.stream_durable_events_response_500 import StreamDurableEventsResponse500
from ...models.stream_durable_events_response_503 import StreamDurableEventsResponse503
from ...types import UNSET, Response


def _get_kwargs(
    *,
    queue_id: str,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["queue_id"] = queue_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1beta/events/stream-durable",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    StreamDurableEventsResponse401
    | StreamDurableEventsResponse403
    | StreamDurableEventsResponse404
    | StreamDurableEventsResponse422
    | StreamDurableEventsResponse500
    | StreamDurableEventsResponse503
    | str
    | None
):
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 401:
        response_401 = StreamDurableEventsResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = StreamDurableEventsResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = StreamDurableEventsResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = StreamDurableEventsResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = StreamDurableEventsResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = StreamDurableEventsResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    StreamDurableEventsResponse401
    | StreamDurableEventsResponse403
    | StreamDurableEventsResponse404
    | StreamDurableEventsResponse422
    | StreamDurableEventsResponse500
    | StreamDurableEventsResponse503
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
    queue_id: str,
) -> Response[
    StreamDurableEventsResponse401
    | StreamDurableEventsResponse403
    | StreamDurableEventsResponse404
    | StreamDurableEventsResponse422
    | StreamDurableEventsResponse500
    | StreamDurableEventsResponse503
    | str
]:
    """Stream Durable Events

     Streams events from a durable queue (Server-Sent Events), acknowledged after a short delay.

    Args:
        queue_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[StreamDurableEventsResponse401 | StreamDurableEventsResponse403 | StreamDurableEventsResponse404 | StreamDurableEventsResponse422 | StreamDurableEventsResponse500 | StreamDurableEventsResponse503 | str]
    """

    kwargs = _get_kwargs(
        queue_id=queue_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    queue_id: str,
) -> (
    StreamDurableEventsResponse401
    | StreamDurableEventsResponse403
    | StreamDurableEventsResponse404
    | StreamDurableEventsResponse422
    | StreamDurableEventsResponse500
    | StreamDurableEventsResponse503
    | str
    | None
):
    """Stream Durable Events

     Streams events from a durable queue (Server-Sent Events), acknowledged after a short delay.

    Args:
        queue_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        StreamDurableEventsResponse401 | StreamDurableEventsResponse403 | StreamDurableEventsResponse404 | StreamDurableEventsResponse422 | StreamDurableEventsResponse500 | StreamDurableEventsResponse503 | str
    """

    return sync_detailed(
        client=client,
        queue_id=queue_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    queue_id: str,
) -> Response[
    StreamDurableEventsResponse401
    | StreamDurableEventsResponse403
    | StreamDurableEventsResponse404
    | StreamDurableEventsResponse422
    | StreamDurableEventsResponse500
    | StreamDurableEventsResponse503
    | str
]:
    """Stream Durable Events

     Streams events from a durable queue (Server-Sent Events), acknowledged after a short delay.

    Args:
        queue_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[StreamDurableEventsResponse401 | StreamDurableEventsResponse403 | StreamDurableEventsResponse404 | StreamDurableEventsResponse422 | StreamDurableEventsResponse500 | StreamDurableEventsResponse503 | str]
    """

    kwargs = _get_kwargs(
        queue_id=queue_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    queue_id: str,
) -> (
    StreamDurableEventsResponse401
    | StreamDurableEventsResponse403
    | StreamDurableEventsResponse404
    | StreamDurableEventsResponse422
    | StreamDurableEventsResponse500
    | StreamDurableEventsResponse503
    | str
    | None
):
    """Stream Durable Events

     Streams events from a durable queue (Server-Sent Events), acknowledged after a short delay.

    Args:
        queue_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        StreamDurableEventsResponse401 | StreamDurableEventsResponse403 | StreamDurableEventsResponse404 | StreamDurableEventsResponse422 | StreamDurableEventsResponse500 | StreamDurableEventsResponse503 | str
    """

    return (
        await asyncio_detailed(
            client=client,
            queue_id=queue_id,
        )
    ).parsed
