from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_durable_queue_request import CreateDurableQueueRequest
from ...models.create_durable_queue_response import CreateDurableQueueResponse
from ...models.create_durable_queue_response_400 import CreateDurableQueueResponse400
from ...models.create_durable_queue_response_401 import CreateDurableQueueResponse401
from ...models.create_durable_queue_response_403 import CreateDurableQueueResponse403
from ...models.create_durable_queue_response_404 import CreateDurableQueueResponse404
from ...models.create_durable_queue_response_422 import CreateDurableQueueResponse422
from ...models.create_durable_queue_response_500 import CreateDurableQueueResponse500
from ...models.create_durable_queue_response_503 import CreateDurableQueueResponse503
from ...types import UNSET, Response


def _get_kwargs(
    *,
    body: CreateDurableQueueRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1beta/queues/durable",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    CreateDurableQueueResponse
    | CreateDurableQueueResponse400
    | CreateDurableQueueResponse401
    | CreateDurableQueueResponse403
    | CreateDurableQueueResponse404
    | CreateDurableQueueResponse422
    | CreateDurableQueueResponse500
    | CreateDurableQueueResponse503
    | None
):
    if response.status_code == 200:
        response_200 = CreateDurableQueueResponse.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = CreateDurableQueueResponse.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = CreateDurableQueueResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = CreateDurableQueueResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = CreateDurableQueueResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = CreateDurableQueueResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = CreateDurableQueueResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = CreateDurableQueueResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = CreateDurableQueueResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    CreateDurableQueueResponse
    | CreateDurableQueueResponse400
    | CreateDurableQueueResponse401
    | CreateDurableQueueResponse403
    | CreateDurableQueueResponse404
    | CreateDurableQueueResponse422
    | CreateDurableQueueResponse500
    | CreateDurableQueueResponse503
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
    body: CreateDurableQueueRequest,
) -> Response[
    CreateDurableQueueResponse
    | CreateDurableQueueResponse400
    | CreateDurableQueueResponse401
    | CreateDurableQueueResponse403
    | CreateDurableQueueResponse404
    | CreateDurableQueueResponse422
    | CreateDurableQueueResponse500
    | CreateDurableQueueResponse503
]:
    """Create Durable Queue

     Creates a durable queue (ensure-exists when queue_id is given): 201 created, else 200.

    Args:
        body (CreateDurableQueueRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateDurableQueueResponse | CreateDurableQueueResponse400 | CreateDurableQueueResponse401 | CreateDurableQueueResponse403 | CreateDurableQueueResponse404 | CreateDurableQueueResponse422 | CreateDurableQueueResponse500 | CreateDurableQueueResponse503]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateDurableQueueRequest,
) -> (
    CreateDurableQueueResponse
    | CreateDurableQueueResponse400
    | CreateDurableQueueResponse401
    | CreateDurableQueueResponse403
    | CreateDurableQueueResponse404
    | CreateDurableQueueResponse422
    | CreateDurableQueueResponse500
    | CreateDurableQueueResponse503
    | None
):
    """Create Durable Queue

     Creates a durable queue (ensure-exists when queue_id is given): 201 created, else 200.

    Args:
        body (CreateDurableQueueRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateDurableQueueResponse | CreateDurableQueueResponse400 | CreateDurableQueueResponse401 | CreateDurableQueueResponse403 | CreateDurableQueueResponse404 | CreateDurableQueueResponse422 | CreateDurableQueueResponse500 | CreateDurableQueueResponse503
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateDurableQueueRequest,
) -> Response[
    CreateDurableQueueResponse
    | CreateDurableQueueResponse400
    | CreateDurableQueueResponse401
    | CreateDurableQueueResponse403
    | CreateDurableQueueResponse404
    | CreateDurableQueueResponse422
    | CreateDurableQueueResponse500
    | CreateDurableQueueResponse503
]:
    """Create Durable Queue

     Creates a durable queue (ensure-exists when queue_id is given): 201 created, else 200.

    Args:
        body (CreateDurableQueueRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateDurableQueueResponse | CreateDurableQueueResponse400 | CreateDurableQueueResponse401 | CreateDurableQueueResponse403 | CreateDurableQueueResponse404 | CreateDurableQueueResponse422 | CreateDurableQueueResponse500 | CreateDurableQueueResponse503]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateDurableQueueRequest,
) -> (
    CreateDurableQueueResponse
    | CreateDurableQueueResponse400
    | CreateDurableQueueResponse401
    | CreateDurableQueueResponse403
    | CreateDurableQueueResponse404
    | CreateDurableQueueResponse422
    | CreateDurableQueueResponse500
    | CreateDurableQueueResponse503
    | None
):
    """Create Durable Queue

     Creates a durable queue (ensure-exists when queue_id is given): 201 created, else 200.

    Args:
        body (CreateDurableQueueRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateDurableQueueResponse | CreateDurableQueueResponse400 | CreateDurableQueueResponse401 | CreateDurableQueueResponse403 | CreateDurableQueueResponse404 | CreateDurableQueueResponse422 | CreateDurableQueueResponse500 | CreateDurableQueueResponse503
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
