from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.topic_config_answer import TopicConfigAnswer
from ...types import UNSET, Response


def _get_kwargs(
    domain: str,
    topic: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/{domain}/event/topics/{topic}".format(
            domain=quote(str(domain), safe=""),
            topic=quote(str(topic), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TopicConfigAnswer | None:
    if response.status_code == 200:
        response_200 = TopicConfigAnswer.from_dict(response.json())

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
) -> Response[Problem | TopicConfigAnswer]:
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
) -> Response[Problem | TopicConfigAnswer]:
    """Get Config

     The Main Topic's effective window (``default: true`` when nothing is stored).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TopicConfigAnswer]
    """

    kwargs = _get_kwargs(
        domain=domain,
        topic=topic,
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
) -> Problem | TopicConfigAnswer | None:
    """Get Config

     The Main Topic's effective window (``default: true`` when nothing is stored).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TopicConfigAnswer
    """

    return sync_detailed(
        domain=domain,
        topic=topic,
        client=client,
    ).parsed


async def asyncio_detailed(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | TopicConfigAnswer]:
    """Get Config

     The Main Topic's effective window (``default: true`` when nothing is stored).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TopicConfigAnswer]
    """

    kwargs = _get_kwargs(
        domain=domain,
        topic=topic,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
) -> Problem | TopicConfigAnswer | None:
    """Get Config

     The Main Topic's effective window (``default: true`` when nothing is stored).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TopicConfigAnswer
    """

    return (
        await asyncio_detailed(
            domain=domain,
            topic=topic,
            client=client,
        )
    ).parsed
