from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.broker_get_config_response_401 import BrokerGetConfigResponse401
from ...models.broker_get_config_response_403 import BrokerGetConfigResponse403
from ...models.broker_get_config_response_422 import BrokerGetConfigResponse422
from ...models.broker_get_config_response_500 import BrokerGetConfigResponse500
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
) -> (
    BrokerGetConfigResponse401
    | BrokerGetConfigResponse403
    | BrokerGetConfigResponse422
    | BrokerGetConfigResponse500
    | TopicConfigAnswer
    | None
):
    if response.status_code == 200:
        response_200 = TopicConfigAnswer.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = BrokerGetConfigResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = BrokerGetConfigResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 422:
        response_422 = BrokerGetConfigResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = BrokerGetConfigResponse500.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    BrokerGetConfigResponse401
    | BrokerGetConfigResponse403
    | BrokerGetConfigResponse422
    | BrokerGetConfigResponse500
    | TopicConfigAnswer
]:
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
) -> Response[
    BrokerGetConfigResponse401
    | BrokerGetConfigResponse403
    | BrokerGetConfigResponse422
    | BrokerGetConfigResponse500
    | TopicConfigAnswer
]:
    """Get Config

     The Main Topic's effective window (``default: true`` when nothing is stored).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BrokerGetConfigResponse401 | BrokerGetConfigResponse403 | BrokerGetConfigResponse422 | BrokerGetConfigResponse500 | TopicConfigAnswer]
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
) -> (
    BrokerGetConfigResponse401
    | BrokerGetConfigResponse403
    | BrokerGetConfigResponse422
    | BrokerGetConfigResponse500
    | TopicConfigAnswer
    | None
):
    """Get Config

     The Main Topic's effective window (``default: true`` when nothing is stored).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BrokerGetConfigResponse401 | BrokerGetConfigResponse403 | BrokerGetConfigResponse422 | BrokerGetConfigResponse500 | TopicConfigAnswer
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
) -> Response[
    BrokerGetConfigResponse401
    | BrokerGetConfigResponse403
    | BrokerGetConfigResponse422
    | BrokerGetConfigResponse500
    | TopicConfigAnswer
]:
    """Get Config

     The Main Topic's effective window (``default: true`` when nothing is stored).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BrokerGetConfigResponse401 | BrokerGetConfigResponse403 | BrokerGetConfigResponse422 | BrokerGetConfigResponse500 | TopicConfigAnswer]
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
) -> (
    BrokerGetConfigResponse401
    | BrokerGetConfigResponse403
    | BrokerGetConfigResponse422
    | BrokerGetConfigResponse500
    | TopicConfigAnswer
    | None
):
    """Get Config

     The Main Topic's effective window (``default: true`` when nothing is stored).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BrokerGetConfigResponse401 | BrokerGetConfigResponse403 | BrokerGetConfigResponse422 | BrokerGetConfigResponse500 | TopicConfigAnswer
    """

    return (
        await asyncio_detailed(
            domain=domain,
            topic=topic,
            client=client,
        )
    ).parsed
