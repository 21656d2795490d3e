from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.resume_blocked_key_request import ResumeBlockedKeyRequest
from ...models.resume_blocked_key_response import ResumeBlockedKeyResponse
from ...types import UNSET, Response


def _get_kwargs(
    id: UUID,
    *,
    body: ResumeBlockedKeyRequest,
    x_idempotency: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Idempotency"] = x_idempotency

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/subscriptions/{id}/blocked-keys/resume".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ResumeBlockedKeyResponse | None:
    if response.status_code == 200:
        response_200 = ResumeBlockedKeyResponse.from_dict(response.json())

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
) -> Response[Problem | ResumeBlockedKeyResponse]:
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
    body: ResumeBlockedKeyRequest,
    x_idempotency: str,
) -> Response[Problem | ResumeBlockedKeyResponse]:
    """Resume a blocked key

     Retry the blocked head (a new job, due now) or skip it (the key's next event goes), extension N77.

    Args:
        id (UUID):
        x_idempotency (str):
        body (ResumeBlockedKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ResumeBlockedKeyResponse]
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
    body: ResumeBlockedKeyRequest,
    x_idempotency: str,
) -> Problem | ResumeBlockedKeyResponse | None:
    """Resume a blocked key

     Retry the blocked head (a new job, due now) or skip it (the key's next event goes), extension N77.

    Args:
        id (UUID):
        x_idempotency (str):
        body (ResumeBlockedKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ResumeBlockedKeyResponse
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
    body: ResumeBlockedKeyRequest,
    x_idempotency: str,
) -> Response[Problem | ResumeBlockedKeyResponse]:
    """Resume a blocked key

     Retry the blocked head (a new job, due now) or skip it (the key's next event goes), extension N77.

    Args:
        id (UUID):
        x_idempotency (str):
        body (ResumeBlockedKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ResumeBlockedKeyResponse]
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
    body: ResumeBlockedKeyRequest,
    x_idempotency: str,
) -> Problem | ResumeBlockedKeyResponse | None:
    """Resume a blocked key

     Retry the blocked head (a new job, due now) or skip it (the key's next event goes), extension N77.

    Args:
        id (UUID):
        x_idempotency (str):
        body (ResumeBlockedKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ResumeBlockedKeyResponse
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            x_idempotency=x_idempotency,
        )
    ).parsed
