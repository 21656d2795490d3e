from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.durable_queue_response import DurableQueueResponse
from ...models.get_durable_queue_response_401 import GetDurableQueueResponse401
from ...models.get_durable_queue_response_403 import GetDurableQueueResponse403
from ...models.get_durable_queue_response_404 import GetDurableQueueResponse404
from ...models.get_durable_queue_response_422 import GetDurableQueueResponse422
from ...models.get_durable_queue_response_429 import GetDurableQueueResponse429
from ...models.get_durable_queue_response_500 import GetDurableQueueResponse500
from ...models.get_durable_queue_response_503 import GetDurableQueueResponse503
from ...models.get_durable_queue_response_504 import GetDurableQueueResponse504
from ...types import UNSET, Response


def _get_kwargs(
    queue_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/durable-queues/{queue_id}".format(
            queue_id=quote(str(queue_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    DurableQueueResponse
    | GetDurableQueueResponse401
    | GetDurableQueueResponse403
    | GetDurableQueueResponse404
    | GetDurableQueueResponse422
    | GetDurableQueueResponse429
    | GetDurableQueueResponse500
    | GetDurableQueueResponse503
    | GetDurableQueueResponse504
    | None
):
    if response.status_code == 200:
        response_200 = DurableQueueResponse.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = GetDurableQueueResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = GetDurableQueueResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = GetDurableQueueResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = GetDurableQueueResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = GetDurableQueueResponse429.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = GetDurableQueueResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = GetDurableQueueResponse503.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = GetDurableQueueResponse504.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    DurableQueueResponse
    | GetDurableQueueResponse401
    | GetDurableQueueResponse403
    | GetDurableQueueResponse404
    | GetDurableQueueResponse422
    | GetDurableQueueResponse429
    | GetDurableQueueResponse500
    | GetDurableQueueResponse503
    | GetDurableQueueResponse504
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    queue_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[
    DurableQueueResponse
    | GetDurableQueueResponse401
    | GetDurableQueueResponse403
    | GetDurableQueueResponse404
    | GetDurableQueueResponse422
    | GetDurableQueueResponse429
    | GetDurableQueueResponse500
    | GetDurableQueueResponse503
    | GetDurableQueueResponse504
]:
    """Get one durable queue

     One durable queue of the tenant, or the uniform 404.

    Args:
        queue_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DurableQueueResponse | GetDurableQueueResponse401 | GetDurableQueueResponse403 | GetDurableQueueResponse404 | GetDurableQueueResponse422 | GetDurableQueueResponse429 | GetDurableQueueResponse500 | GetDurableQueueResponse503 | GetDurableQueueResponse504]
    """

    kwargs = _get_kwargs(
        queue_id=queue_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    queue_id: str,
    *,
    client: AuthenticatedClient,
) -> (
    DurableQueueResponse
    | GetDurableQueueResponse401
    | GetDurableQueueResponse403
    | GetDurableQueueResponse404
    | GetDurableQueueResponse422
    | GetDurableQueueResponse429
    | GetDurableQueueResponse500
    | GetDurableQueueResponse503
    | GetDurableQueueResponse504
    | None
):
    """Get one durable queue

     One durable queue of the tenant, or the uniform 404.

    Args:
        queue_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DurableQueueResponse | GetDurableQueueResponse401 | GetDurableQueueResponse403 | GetDurableQueueResponse404 | GetDurableQueueResponse422 | GetDurableQueueResponse429 | GetDurableQueueResponse500 | GetDurableQueueResponse503 | GetDurableQueueResponse504
    """

    return sync_detailed(
        queue_id=queue_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    queue_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[
    DurableQueueResponse
    | GetDurableQueueResponse401
    | GetDurableQueueResponse403
    | GetDurableQueueResponse404
    | GetDurableQueueResponse422
    | GetDurableQueueResponse429
    | GetDurableQueueResponse500
    | GetDurableQueueResponse503
    | GetDurableQueueResponse504
]:
    """Get one durable queue

     One durable queue of the tenant, or the uniform 404.

    Args:
        queue_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DurableQueueResponse | GetDurableQueueResponse401 | GetDurableQueueResponse403 | GetDurableQueueResponse404 | GetDurableQueueResponse422 | GetDurableQueueResponse429 | GetDurableQueueResponse500 | GetDurableQueueResponse503 | GetDurableQueueResponse504]
    """

    kwargs = _get_kwargs(
        queue_id=queue_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    queue_id: str,
    *,
    client: AuthenticatedClient,
) -> (
    DurableQueueResponse
    | GetDurableQueueResponse401
    | GetDurableQueueResponse403
    | GetDurableQueueResponse404
    | GetDurableQueueResponse422
    | GetDurableQueueResponse429
    | GetDurableQueueResponse500
    | GetDurableQueueResponse503
    | GetDurableQueueResponse504
    | None
):
    """Get one durable queue

     One durable queue of the tenant, or the uniform 404.

    Args:
        queue_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DurableQueueResponse | GetDurableQueueResponse401 | GetDurableQueueResponse403 | GetDurableQueueResponse404 | GetDurableQueueResponse422 | GetDurableQueueResponse429 | GetDurableQueueResponse500 | GetDurableQueueResponse503 | GetDurableQueueResponse504
    """

    return (
        await asyncio_detailed(
            queue_id=queue_id,
            client=client,
        )
    ).parsed
