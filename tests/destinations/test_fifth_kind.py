"""The test of done for providers: a new kind is one provider module and one registry line.

The provider below stands for that module. Registered (one line: an entry in ``PROVIDERS``), it is
validated, displayed, counted and delivered through the same code paths every kind goes through,
without any other module knowing its name.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, ClassVar

import pytest

from hub.config import get_settings
from hub.dashboard.service import census_body
from hub.providers import endpoints
from hub.providers import registry
from hub.providers.base import EndpointShapeError, ProbeTarget, Provider, text_field
from hub.errors import ValidationFailed
from hub.sinks.base import AttemptResult, PreparedDelivery
from hub.subscription.delivery_view import VIEW_COLUMNS, delivery_view
from workers.deliver.prepare import destination_key

RECEIVED: list[bytes] = []


class Kind(StrEnum):
    carrier = "carrier"


class CarrierSink:
    """A send half that keeps what it is handed (the extra kind's destination lives in this process)."""

    kind: ClassVar[Kind] = Kind.carrier
    batch_size: ClassVar[int] = 1

    def __init__(self, *, settings: Any) -> None:
        self.settings = settings

    async def deliver(self, delivery: PreparedDelivery) -> AttemptResult:
        RECEIVED.append(delivery.body)
        return AttemptResult.success()

    async def deliver_many(self, deliveries: Sequence[PreparedDelivery]) -> list[AttemptResult]:
        return [await self.deliver(delivery) for delivery in deliveries]

    async def close(self) -> None:
        pass


class CarrierProvider(Provider):
    """Endpoints are ``loft/<bird>``; the credential is ``{"ring": ...}``; probes always succeed."""

    kind = Kind.carrier  # type: ignore[assignment]
    sink = CarrierSink
    names_destination_only = verifies = takes_credential = True

    def check_shape(self, endpoint: str) -> None:
        if not endpoint.startswith("loft/"):
            raise EndpointShapeError('a carrier endpoint is "loft/<bird>"')

    def mask(self, endpoint: str) -> str:
        return endpoint.removeprefix("loft/")

    def parse_credential(self, config: dict[str, Any]) -> dict[str, Any]:
        return {"ring": text_field(config, "ring", "sinkConfig/ring")}

    def probe(self, target: ProbeTarget, settings: Any) -> AttemptResult:
        return AttemptResult.success()


@pytest.fixture
def carrier(monkeypatch) -> Provider:
    provider = CarrierProvider()
    monkeypatch.setitem(registry.PROVIDERS, "carrier", provider)  # the one registry line
    return provider


def test_a_registered_kind_is_validated_displayed_and_listed(carrier):
    assert "carrier" in registry.kinds() and registry.kinds_where("verifies")[-1] == "carrier"
    assert endpoints.check_shape("carrier", "loft/pidgey") == "loft/pidgey"
    with pytest.raises(ValidationFailed):
        endpoints.check_shape("carrier", "elsewhere")
    with pytest.raises(ValidationFailed):  # names_destination_only, applied by the shared endpoint rules
        endpoints.check_shape("carrier", "https://loft/x")
    endpoints.check_reachable("carrier", "loft/pidgey")
    assert endpoints.endpoint_display("carrier", "loft/pidgey") == "pidgey"
    assert carrier.parse_credential({"ring": "r-1"}) == {"ring": "r-1"}
    census = census_body([(True, "active", "carrier", 2), (True, "active", "pull", 1)])
    assert census["by_sink_kind"]["carrier"] == 2 and census["by_channel"] == {"push": 2, "pull": 1}


def test_a_registered_kind_is_prepared_and_sent_by_the_engines_sink_set(carrier):
    sub_id = uuid.uuid4()
    row = {"id": sub_id, "tenant_id": "t", "sink_kind": "carrier", "endpoint": "loft/pidgey", "enabled": True,
           "verification_state": "active"}
    view = delivery_view([row.get(name) for name in VIEW_COLUMNS], now=None)  # type: ignore[arg-type] (no signing)
    assert view.destination.kind is Kind.carrier and view.access.credential is None and view.signing_secrets == ()
    assert view.deliverable and view.problem == ""
    assert destination_key(view.destination.kind, view.destination.target) == "carrier:loft/pidgey"
    sinks = registry.SinkSet(settings=get_settings())
    delivery = PreparedDelivery(delivery_id="d1", job_id=None, tenant_id="t", subscription_id=sub_id,
                                sink_kind=view.destination.kind, endpoint=view.destination.target, body=b'{"n":1}', attributes={})

    async def send() -> AttemptResult:
        try:
            return await sinks.get("carrier").deliver(delivery)
        finally:
            await sinks.close()

    assert asyncio.run(send()).ok and RECEIVED[-1] == b'{"n":1}'
