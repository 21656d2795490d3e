"""The EventBridge provider: ``"<bus name>[/<detail-type>]"``; DescribeEventBus probe."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from hub.errors import invalid
from hub.providers.aws.provider import AwsProvider
from hub.providers.base import EndpointShapeError
from hub.sinks.vocabulary import SinkKind
from hub.providers.eventbridge.sink import EventBridgeSink

_BUS = re.compile(r"^[A-Za-z0-9._-]{1,256}$")
BUS_ARN = re.compile(r"^arn:aws[a-z-]*:events:([a-z0-9-]+):[0-9]{12}:event-bus/([A-Za-z0-9._/-]{1,256})$")


class EventBridgeProvider(AwsProvider):
    kind: ClassVar[SinkKind] = SinkKind.eventbridge
    label: ClassVar[str] = "Amazon EventBridge"
    endpoint_label: ClassVar[str] = "Event bus name"
    endpoint_example: ClassVar[str] = "orders-bus or orders-bus/detail-type"
    grant_destination_hint: ClassVar[str] = "The event bus ARN: arn:aws:events:REGION:ACCOUNT:event-bus/NAME."
    sink = EventBridgeSink
    service, probe_step = "events", "events:DescribeEventBus"
    names_destination_only = True
    keeps_order = False
    ordering_refusal = ("EventBridge does not keep order at its targets (rules fan out in parallel), so "
                        "an eventbridge subscription cannot be ordered")

    def check_shape(self, endpoint: str) -> None:
        bus, _, detail_type = endpoint.partition("/")
        if not _BUS.match(bus) or len(detail_type) > 128:
            raise EndpointShapeError('an eventbridge endpoint is "<event bus name>[/<detail-type>]"')

    def check_grant(self, endpoint: str, grant: Any) -> None:
        match = BUS_ARN.match(grant.destination)
        if match is None:
            raise invalid("destination", "the destination must be the event bus ARN")
        if match.group(2) != endpoint.partition("/")[0] or match.group(1) != grant.region:
            raise invalid("destination",
                          "the destination must be the subscription's event bus in the grant's region")

    def probe_call(self, client: Any, endpoint: str) -> None:
        client.describe_event_bus(Name=endpoint.partition("/")[0])


PROVIDER = EventBridgeProvider()
