from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.broker_delete_config_response_401 import BrokerDeleteConfigResponse401
from ...models.broker_delete_config_response_403 import BrokerDeleteConfigResponse403
from ...models.broker_delete_config_response_422 import BrokerDeleteConfigResponse422
from ...models.broker_delete_config_response_500 import BrokerDeleteConfigResponse500
from ...types import UNSET, Response


def _get_kwargs(
    domain: str,
    topic: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/{domain}/event/topics/{topic}".format(
            domain=quote(str(domain), safe=""),
            topic=quote(str(topic), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Any
    | BrokerDeleteConfigResponse401
    | BrokerDeleteConfigResponse403
    | BrokerDeleteConfigResponse422
    | BrokerDeleteConfigResponse500
    | None
):
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 401:
        response_401 = BrokerDeleteConfigResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = BrokerDeleteConfigResponse403.from_dict(response.json())

        return response_403

    if response.status_code == 422:
        response_422 = BrokerDeleteConfigResponse422.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = BrokerDeleteConfigResponse500.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Any
    | BrokerDeleteConfigResponse401
    | BrokerDeleteConfigResponse403
    | BrokerDeleteConfigResponse422
    | BrokerDeleteConfigResponse500
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
    Any
    | BrokerDeleteConfigResponse401
    | BrokerDeleteConfigResponse403
    | BrokerDeleteConfigResponse422
    | BrokerDeleteConfigResponse500
]:
    """Delete Config

     Remove the Main Topic's config (idempotent).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | BrokerDeleteConfigResponse401 | BrokerDeleteConfigResponse403 | BrokerDeleteConfigResponse422 | BrokerDeleteConfigResponse500]
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
    Any
    | BrokerDeleteConfigResponse401
    | BrokerDeleteConfigResponse403
    | BrokerDeleteConfigResponse422
    | BrokerDeleteConfigResponse500
    | None
):
    """Delete Config

     Remove the Main Topic's config (idempotent).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | BrokerDeleteConfigResponse401 | BrokerDeleteConfigResponse403 | BrokerDeleteConfigResponse422 | BrokerDeleteConfigResponse500
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
    Any
    | BrokerDeleteConfigResponse401
    | BrokerDeleteConfigResponse403
    | BrokerDeleteConfigResponse422
    | BrokerDeleteConfigResponse500
]:
    """Delete Config

     Remove the Main Topic's config (idempotent).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | BrokerDeleteConfigResponse401 | BrokerDeleteConfigResponse403 | BrokerDeleteConfigResponse422 | BrokerDeleteConfigResponse500]
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
    Any
    | BrokerDeleteConfigResponse401
    | BrokerDeleteConfigResponse403
    | BrokerDeleteConfigResponse422
    | BrokerDeleteConfigResponse500
    | None
):
    """Delete Config

     Remove the Main Topic's config (idempotent).

    Args:
        domain (str):
        topic (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | BrokerDeleteConfigResponse401 | BrokerDeleteConfigResponse403 | BrokerDeleteConfigResponse422 | BrokerDeleteConfigResponse500
    """

    return (
        await asyncio_detailed(
            domain=domain,
            topic=topic,
            client=client,
        )
    ).parsed
