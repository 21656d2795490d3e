"""The SQS provider: the ``https://`` queue URL ``/<12-digit account>/<queue>``; GetQueueAttributes probe."""

from __future__ import annotations

import re
from typing import Any, ClassVar
from urllib.parse import urlsplit

from hub.egress import DnsTimeout, DnsUnavailable, InvalidDestination, check_https_url
from hub.errors import invalid
from hub.providers.aws.provider import AwsProvider
from hub.providers.base import EndpointShapeError
from hub.sinks.vocabulary import SinkKind
from hub.providers.sqs.sink import SqsSink

_ACCOUNT = re.compile(r"^[0-9]{12}$")
_QUEUE = re.compile(r"^[A-Za-z0-9_-]{1,80}(\.fifo)?$")
SQS_HOST_REGION = re.compile(r"^sqs\.([a-z]{2}(?:-[a-z]+)+-[0-9]{1,2})\.amazonaws\.com(?:\.cn)?$")


def queue_path(url: str) -> list[str]:
    """``[account id, queue name]`` of a queue URL."""
    return [segment for segment in urlsplit(url).path.split("/") if segment]


class SqsProvider(AwsProvider):
    kind: ClassVar[SinkKind] = SinkKind.sqs
    label: ClassVar[str] = "Amazon SQS"
    endpoint_label: ClassVar[str] = "Queue URL"
    endpoint_example: ClassVar[str] = "https://sqs.us-east-1.amazonaws.com/123456789012/orders"
    grant_destination_hint: ClassVar[str] = "The queue URL this subscription delivers to."
    sink = SqsSink
    service, probe_step = "sqs", "sqs:GetQueueAttributes"

    def check_shape(self, endpoint: str) -> None:
        message = "an sqs endpoint is the https:// queue URL /<account id>/<queue name>"
        try:
            parts = urlsplit(endpoint)
        except ValueError:  # e.g. an unclosed IPv6 bracket
            raise EndpointShapeError(message) from None
        segments = [segment for segment in parts.path.split("/") if segment]
        if parts.scheme.lower() != "https" or len(segments) != 2 or parts.query or parts.fragment:
            raise EndpointShapeError(message)
        if not _ACCOUNT.match(segments[0]) or not _QUEUE.match(segments[1]):
            raise EndpointShapeError(message)

    def check_reachable(self, endpoint: str) -> None:
        """The queue URL is a custom endpoint the hub calls: its host passes the SSRF guard."""
        check_https_url(endpoint)

    def mask(self, endpoint: str) -> str:
        """The queue name: the URL's last path segment."""
        segments = queue_path(endpoint)
        return segments[-1] if segments else ""

    def refuse_blocked(self, endpoint: str, credential: Any) -> None:
        try:
            check_https_url(endpoint)
        except InvalidDestination as exc:
            raise invalid("endpoint", exc.detail) from exc

    def check_grant(self, endpoint: str, grant: Any) -> None:
        try:
            check_https_url(grant.destination)
        except InvalidDestination as exc:
            raise invalid("destination", exc.detail) from exc
        except (DnsUnavailable, DnsTimeout):
            raise invalid("destination", "the destination host does not resolve") from None
        if queue_path(grant.destination) != queue_path(endpoint):
            raise invalid("destination", "the destination must be the subscription's queue URL")

    def probe_call(self, client: Any, endpoint: str) -> None:
        client.get_queue_attributes(QueueUrl=endpoint, AttributeNames=["QueueArn"])

    def endpoint_region(self, endpoint: str) -> str | None:
        """The region an SQS queue URL names in its host (``sqs.<region>.amazonaws.com``), if any."""
        match = SQS_HOST_REGION.match((urlsplit(endpoint).hostname or "").lower())
        return match.group(1) if match else None


PROVIDER = SqsProvider()
