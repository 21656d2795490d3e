from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.purge_count import PurgeCount
from ...types import UNSET, Response, Unset


def _get_kwargs(
    domain: str,
    topic: str,
    *,
    type_: str | Unset = UNSET,
    since: int | Unset = UNSET,
    until: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["type"] = type_

    params["since"] = since

    params["until"] = until

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/{domain}/event/data/{topic}".format(
            domain=quote(str(domain), safe=""),
            topic=quote(str(topic), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | PurgeCount | None:
    if response.status_code == 200:
        response_200 = PurgeCount.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | PurgeCount]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    since: int | Unset = UNSET,
    until: int | Unset = UNSET,
) -> Response[Problem | PurgeCount]:
    """Purge History

     Delete the retained events of the topic's subtree (optional type, since, until).

    Args:
        domain (str):
        topic (str):
        type_ (str | Unset):
        since (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PurgeCount]
    """

    kwargs = _get_kwargs(
        domain=domain,
        topic=topic,
        type_=type_,
        since=since,
        until=until,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    since: int | Unset = UNSET,
    until: int | Unset = UNSET,
) -> Problem | PurgeCount | None:
    """Purge History

     Delete the retained events of the topic's subtree (optional type, since, until).

    Args:
        domain (str):
        topic (str):
        type_ (str | Unset):
        since (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PurgeCount
    """

    return sync_detailed(
        domain=domain,
        topic=topic,
        client=client,
        type_=type_,
        since=since,
        until=until,
    ).parsed


async def asyncio_detailed(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    since: int | Unset = UNSET,
    until: int | Unset = UNSET,
) -> Response[Problem | PurgeCount]:
    """Purge History

     Delete the retained events of the topic's subtree (optional type, since, until).

    Args:
        domain (str):
        topic (str):
        type_ (str | Unset):
        since (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PurgeCount]
    """

    kwargs = _get_kwargs(
        domain=domain,
        topic=topic,
        type_=type_,
        since=since,
        until=until,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
    type_: str | Unset = UNSET,
    since: int | Unset = UNSET,
    until: int | Unset = UNSET,
) -> Problem | PurgeCount | None:
    """Purge History

     Delete the retained events of the topic's subtree (optional type, since, until).

    Args:
        domain (str):
        topic (str):
        type_ (str | Unset):
        since (int | Unset):
        until (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PurgeCount
    """

    return (
        await asyncio_detailed(
            domain=domain,
            topic=topic,
            client=client,
            type_=type_,
            since=since,
            until=until,
        )
    ).parsed
