from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery_job_response import DeliveryJobResponse
from ...models.problem import Problem
from ...types import UNSET, Response


def _get_kwargs(
    id: UUID,
    job_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/subscriptions/{id}/deliveries/{job_id}".format(
            id=quote(str(id), safe=""),
            job_id=quote(str(job_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeliveryJobResponse | Problem | None:
    if response.status_code == 200:
        response_200 = DeliveryJobResponse.from_dict(response.json())

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
) -> Response[DeliveryJobResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    job_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[DeliveryJobResponse | Problem]:
    """Get one delivery job

     One job of the subscription with all its attempts, or the uniform 404.

    Args:
        id (UUID):
        job_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryJobResponse | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        job_id=job_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    job_id: UUID,
    *,
    client: AuthenticatedClient,
) -> DeliveryJobResponse | Problem | None:
    """Get one delivery job

     One job of the subscription with all its attempts, or the uniform 404.

    Args:
        id (UUID):
        job_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryJobResponse | Problem
    """

    return sync_detailed(
        id=id,
        job_id=job_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    job_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[DeliveryJobResponse | Problem]:
    """Get one delivery job

     One job of the subscription with all its attempts, or the uniform 404.

    Args:
        id (UUID):
        job_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryJobResponse | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        job_id=job_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    job_id: UUID,
    *,
    client: AuthenticatedClient,
) -> DeliveryJobResponse | Problem | None:
    """Get one delivery job

     One job of the subscription with all its attempts, or the uniform 404.

    Args:
        id (UUID):
        job_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryJobResponse | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            job_id=job_id,
            client=client,
        )
    ).parsed
