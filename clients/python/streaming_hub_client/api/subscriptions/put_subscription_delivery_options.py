from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery_options import DeliveryOptions
from ...models.delivery_options_request import DeliveryOptionsRequest
from ...models.problem import Problem
from ...types import UNSET, Response


def _get_kwargs(
    id: UUID,
    *,
    body: DeliveryOptionsRequest,
    x_idempotency: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Idempotency"] = x_idempotency

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/subscriptions/{id}/delivery-options".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeliveryOptions | Problem | None:
    if response.status_code == 200:
        response_200 = DeliveryOptions.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

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
) -> Response[DeliveryOptions | Problem]:
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
    body: DeliveryOptionsRequest,
    x_idempotency: str,
) -> Response[DeliveryOptions | Problem]:
    """Replace a subscription's delivery options

     Replace the whole set (extension, N67): a field left out is null, so `{}` removes every option.

    Args:
        id (UUID):
        x_idempotency (str):
        body (DeliveryOptionsRequest): The whole set of delivery options: a field left out is null
            (no filter, no headers, no limit,
            unordered). Any other field is 422 ``validation_error``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryOptions | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        x_idempotency=x_idempotency,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeliveryOptionsRequest,
    x_idempotency: str,
) -> DeliveryOptions | Problem | None:
    """Replace a subscription's delivery options

     Replace the whole set (extension, N67): a field left out is null, so `{}` removes every option.

    Args:
        id (UUID):
        x_idempotency (str):
        body (DeliveryOptionsRequest): The whole set of delivery options: a field left out is null
            (no filter, no headers, no limit,
            unordered). Any other field is 422 ``validation_error``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryOptions | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        x_idempotency=x_idempotency,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeliveryOptionsRequest,
    x_idempotency: str,
) -> Response[DeliveryOptions | Problem]:
    """Replace a subscription's delivery options

     Replace the whole set (extension, N67): a field left out is null, so `{}` removes every option.

    Args:
        id (UUID):
        x_idempotency (str):
        body (DeliveryOptionsRequest): The whole set of delivery options: a field left out is null
            (no filter, no headers, no limit,
            unordered). Any other field is 422 ``validation_error``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryOptions | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        x_idempotency=x_idempotency,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeliveryOptionsRequest,
    x_idempotency: str,
) -> DeliveryOptions | Problem | None:
    """Replace a subscription's delivery options

     Replace the whole set (extension, N67): a field left out is null, so `{}` removes every option.

    Args:
        id (UUID):
        x_idempotency (str):
        body (DeliveryOptionsRequest): The whole set of delivery options: a field left out is null
            (no filter, no headers, no limit,
            unordered). Any other field is 422 ``validation_error``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryOptions | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            x_idempotency=x_idempotency,
        )
    ).parsed
