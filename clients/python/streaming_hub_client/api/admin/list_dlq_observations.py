from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.dlq_response import DLQResponse
from ...models.list_dlq_observations_error_class import ListDlqObservationsErrorClass
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    source_topic: str | Unset = UNSET,
    error_class: ListDlqObservationsErrorClass | Unset = UNSET,
    after: UUID | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["source_topic"] = source_topic

    json_error_class: str | Unset = UNSET
    if not isinstance(error_class, Unset):
        json_error_class = error_class.value

    params["error_class"] = json_error_class

    json_after: str | Unset = UNSET
    if not isinstance(after, Unset):
        json_after = str(after)
    params["after"] = json_after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/admin/dlq",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DLQResponse | Problem | None:
    if response.status_code == 200:
        response_200 = DLQResponse.from_dict(response.json())

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
) -> Response[DLQResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    source_topic: str | Unset = UNSET,
    error_class: ListDlqObservationsErrorClass | Unset = UNSET,
    after: UUID | Unset = UNSET,
) -> Response[DLQResponse | Problem]:
    """List dead-letter observations

     A reverse-chronological, keyset-paginated page of dead-letter observations, across tenants.

    Args:
        source_topic (str | Unset):
        error_class (ListDlqObservationsErrorClass | Unset):
        after (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DLQResponse | Problem]
    """

    kwargs = _get_kwargs(
        source_topic=source_topic,
        error_class=error_class,
        after=after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    source_topic: str | Unset = UNSET,
    error_class: ListDlqObservationsErrorClass | Unset = UNSET,
    after: UUID | Unset = UNSET,
) -> DLQResponse | Problem | None:
    """List dead-letter observations

     A reverse-chronological, keyset-paginated page of dead-letter observations, across tenants.

    Args:
        source_topic (str | Unset):
        error_class (ListDlqObservationsErrorClass | Unset):
        after (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DLQResponse | Problem
    """

    return sync_detailed(
        client=client,
        source_topic=source_topic,
        error_class=error_class,
        after=after,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    source_topic: str | Unset = UNSET,
    error_class: ListDlqObservationsErrorClass | Unset = UNSET,
    after: UUID | Unset = UNSET,
) -> Response[DLQResponse | Problem]:
    """List dead-letter observations

     A reverse-chronological, keyset-paginated page of dead-letter observations, across tenants.

    Args:
        source_topic (str | Unset):
        error_class (ListDlqObservationsErrorClass | Unset):
        after (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DLQResponse | Problem]
    """

    kwargs = _get_kwargs(
        source_topic=source_topic,
        error_class=error_class,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    source_topic: str | Unset = UNSET,
    error_class: ListDlqObservationsErrorClass | Unset = UNSET,
    after: UUID | Unset = UNSET,
) -> DLQResponse | Problem | None:
    """List dead-letter observations

     A reverse-chronological, keyset-paginated page of dead-letter observations, across tenants.

    Args:
        source_topic (str | Unset):
        error_class (ListDlqObservationsErrorClass | Unset):
        after (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DLQResponse | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            source_topic=source_topic,
            error_class=error_class,
            after=after,
        )
    ).parsed
