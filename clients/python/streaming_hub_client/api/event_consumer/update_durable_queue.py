from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.success_response import SuccessResponse
from ...models.update_durable_queue_request import UpdateDurableQueueRequest
from ...models.update_durable_queue_response_400 import UpdateDurableQueueResponse400
from ...models.update_durable_queue_response_401 import UpdateDurableQueueResponse401
from ...models.update_durable_queue_response_403 import UpdateDurableQueueResponse403
from ...models.update_durable_queue_response_404 import UpdateDurableQueueResponse404
from ...models.update_durable_queue_response_422 import UpdateDurableQueueResponse422
from ...models.update_durable_queue_response_500 import UpdateDurableQueueResponse500
from ...models.update_durable_queue_response_503 import UpdateDurableQueueResponse503
from ...types import UNSET, Response


def _get_kwargs(
    *,
    body: UpdateDurableQueueRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1beta/queues/durable",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    SuccessResponse
    | UpdateDurableQueueResponse400
    | UpdateDurableQueueResponse401
    | UpdateDurableQueueResponse403
    | UpdateDurableQueueResponse404
    | UpdateDurableQueueResponse422
    | UpdateDurableQueueResponse500
    | UpdateDurableQueueResponse503
    | None
):
    if response.status_code == 200:
        response_200 = SuccessResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = UpdateDurableQueueResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = UpdateDurableQueueResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = UpdateDurableQueueResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = UpdateDurableQueueResponse404.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = UpdateDurableQueueResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = UpdateDurableQueueResponse500.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = UpdateDurableQueueResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    SuccessResponse
    | UpdateDurableQueueResponse400
    | UpdateDurableQueueResponse401
    | UpdateDurableQueueResponse403
    | UpdateDurableQueueResponse404
    | UpdateDurableQueueResponse422
    | UpdateDurableQueueResponse500
    | UpdateDurableQueueResponse503
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
    body: UpdateDurableQueueRequest,
) -> Response[
    SuccessResponse
    | UpdateDurableQueueResponse400
    | UpdateDurableQueueResponse401
    | UpdateDurableQueueResponse403
    | UpdateDurableQueueResponse404
    | UpdateDurableQueueResponse422
    | UpdateDurableQueueResponse500
    | UpdateDurableQueueResponse503
]:
    """Update Durable Queue

     Updates a durable queue's filters (authorized by create-durable-queues).

    Args:
        body (UpdateDurableQueueRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SuccessResponse | UpdateDurableQueueResponse400 | UpdateDurableQueueResponse401 | UpdateDurableQueueResponse403 | UpdateDurableQueueResponse404 | UpdateDurableQueueResponse422 | UpdateDurableQueueResponse500 | UpdateDurableQueueResponse503]
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
    body: UpdateDurableQueueRequest,
) -> (
    SuccessResponse
    | UpdateDurableQueueResponse400
    | UpdateDurableQueueResponse401
    | UpdateDurableQueueResponse403
    | UpdateDurableQueueResponse404
    | UpdateDurableQueueResponse422
    | UpdateDurableQueueResponse500
    | UpdateDurableQueueResponse503
    | None
):
    """Update Durable Queue

     Updates a durable queue's filters (authorized by create-durable-queues).

    Args:
        body (UpdateDurableQueueRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SuccessResponse | UpdateDurableQueueResponse400 | UpdateDurableQueueResponse401 | UpdateDurableQueueResponse403 | UpdateDurableQueueResponse404 | UpdateDurableQueueResponse422 | UpdateDurableQueueResponse500 | UpdateDurableQueueResponse503
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdateDurableQueueRequest,
) -> Response[
    SuccessResponse
    | UpdateDurableQueueResponse400
    | UpdateDurableQueueResponse401
    | UpdateDurableQueueResponse403
    | UpdateDurableQueueResponse404
    | UpdateDurableQueueResponse422
    | UpdateDurableQueueResponse500
    | UpdateDurableQueueResponse503
]:
    """Update Durable Queue

     Updates a durable queue's filters (authorized by create-durable-queues).

    Args:
        body (UpdateDurableQueueRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SuccessResponse | UpdateDurableQueueResponse400 | UpdateDurableQueueResponse401 | UpdateDurableQueueResponse403 | UpdateDurableQueueResponse404 | UpdateDurableQueueResponse422 | UpdateDurableQueueResponse500 | UpdateDurableQueueResponse503]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: UpdateDurableQueueRequest,
) -> (
    SuccessResponse
    | UpdateDurableQueueResponse400
    | UpdateDurableQueueResponse401
    | UpdateDurableQueueResponse403
    | UpdateDurableQueueResponse404
    | UpdateDurableQueueResponse422
    | UpdateDurableQueueResponse500
    | UpdateDurableQueueResponse503
    | None
):
    """Update Durable Queue

     Updates a durable queue's filters (authorized by create-durable-queues).

    Args:
        body (UpdateDurableQueueRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SuccessResponse | UpdateDurableQueueResponse400 | UpdateDurableQueueResponse401 | UpdateDurableQueueResponse403 | UpdateDurableQueueResponse404 | UpdateDurableQueueResponse422 | UpdateDurableQueueResponse500 | UpdateDurableQueueResponse503
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
