from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.publish_body import PublishBody
from ...models.published_event import PublishedEvent
from ...types import UNSET, Response


def _get_kwargs(
    domain: str,
    topic: str,
    *,
    body: PublishBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/{domain}/event/data/{topic}".format(
            domain=quote(str(domain), safe=""),
            topic=quote(str(topic), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | PublishedEvent | None:
    if response.status_code == 201:
        response_201 = PublishedEvent.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | PublishedEvent]:
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
    body: PublishBody,
) -> Response[Problem | PublishedEvent]:
    """Publish

     Publish an event on exactly the topic; 201 once it is stored (read-your-writes).

    Args:
        domain (str):
        topic (str):
        body (PublishBody): A publish: the type (docs/contract-notes.md N34) and any JSON data.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PublishedEvent]
    """

    kwargs = _get_kwargs(
        domain=domain,
        topic=topic,
        body=body,
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
    body: PublishBody,
) -> Problem | PublishedEvent | None:
    """Publish

     Publish an event on exactly the topic; 201 once it is stored (read-your-writes).

    Args:
        domain (str):
        topic (str):
        body (PublishBody): A publish: the type (docs/contract-notes.md N34) and any JSON data.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PublishedEvent
    """

    return sync_detailed(
        domain=domain,
        topic=topic,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
    body: PublishBody,
) -> Response[Problem | PublishedEvent]:
    """Publish

     Publish an event on exactly the topic; 201 once it is stored (read-your-writes).

    Args:
        domain (str):
        topic (str):
        body (PublishBody): A publish: the type (docs/contract-notes.md N34) and any JSON data.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PublishedEvent]
    """

    kwargs = _get_kwargs(
        domain=domain,
        topic=topic,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    domain: str,
    topic: str,
    *,
    client: AuthenticatedClient,
    body: PublishBody,
) -> Problem | PublishedEvent | None:
    """Publish

     Publish an event on exactly the topic; 201 once it is stored (read-your-writes).

    Args:
        domain (str):
        topic (str):
        body (PublishBody): A publish: the type (docs/contract-notes.md N34) and any JSON data.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PublishedEvent
    """

    return (
        await asyncio_detailed(
            domain=domain,
            topic=topic,
            client=client,
            body=body,
        )
    ).parsed
