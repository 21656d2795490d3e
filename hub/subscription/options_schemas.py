"""Bodies of the delivery-options resource (docs/contract-notes.md N67), an extension of the contract.

A subscription's payload filter (N53), static webhook headers (N54), rate limit (N56) and ordering (N77)
are read and replaced as one set on ``/v1/subscriptions/{id}/delivery-options``; the contract's own
subscription bodies never carry them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr

from hub.schema_base import ClosedModel, omittable

FILTER_DOC = ("A payload filter over the event's `data` (paths `data.a.b`) and attributes (`subject`, …), with "
              "equality, `$eq`, `$in`, `$exists`, `$gt`, `$gte`, `$lt`, `$lte`, `$prefix`, `$and`, `$or` and "
              "`$not` (docs/contract-notes.md N53); null: every event.")

HEADERS_DOC = ("Webhook only: up to 20 static request headers; one marked `secret` is sealed at rest and read back "
               "without its value. None may set `content-type`, `user-agent` or a `webhook-*` header "
               "(docs/contract-notes.md N54).")

RATE_LIMIT_DOC = ("Push kinds only: at most this many deliveries per second to the destination, across every "
                  "delivery worker (1 to 10000); jobs above the rate wait without spending retries "
                  "(docs/contract-notes.md N56). Null: no limit.")


ORDERING_DOC = ("Ordered delivery per key (docs/contract-notes.md N77), on the push kinds that keep order (not "
                "`eventbridge`; `pull` is always read in order): each key's events are sent one at a time, in "
                "event-log order, each only after the one before it was delivered or ended under `on_dead_letter`. "
                "Null: unordered. Asking it of a kind that cannot keep order is 422 `ordering_unsupported`.")
ORDERING_KEY_DOC = ("The CloudEvents attribute whose value is an event's key (a CloudEvents attribute name: 1 to 20 "
                    "lower-case letters or digits). Default `partitionkey`, the Kafka record key, so one key's "
                    "events share a partition. An event without the attribute is delivered unordered.")
ON_DEAD_LETTER_DOC = ("What an event that dead-letters does to its key: `block` (default) parks the key, its later "
                      "events wait until an operator resumes it (`POST …/blocked-keys/resume`, retry or skip); "
                      "`skip` leaves the event dead-lettered and sends the key's next one.")
OnDeadLetter = Literal["block", "skip"]


class OrderingRequest(ClosedModel):
    """The ordering option as a PUT body gives it; a field left out takes its default."""

    key: StrictStr = Field(default="partitionkey", description=ORDERING_KEY_DOC)
    on_dead_letter: OnDeadLetter = Field(default="block", description=ON_DEAD_LETTER_DOC)


class Ordering(ClosedModel):
    """The ordering option in force; both fields always present."""

    key: str = Field(description=ORDERING_KEY_DOC)
    on_dead_letter: OnDeadLetter = Field(description=ON_DEAD_LETTER_DOC)


class StaticHeader(ClosedModel):
    """A static request header as a PUT body gives it."""

    name: StrictStr
    value: StrictStr
    secret: StrictBool = False


class StaticHeaderRead(ClosedModel):
    """A static header as reads show it: a secret one without its value."""

    name: str
    value: str = omittable()
    secret: bool


class DeliveryOptionsRequest(ClosedModel):
    """The whole set of delivery options: a field left out is null (no filter, no headers, no limit,
    unordered). Any other field is 422 ``validation_error``."""

    filter: dict[str, Any] | None = Field(default=None, description=FILTER_DOC)
    headers: list[StaticHeader] | None = Field(default=None, description=HEADERS_DOC + " Null or `[]`: none.")
    rate_limit_per_second: StrictInt | None = Field(default=None, description=RATE_LIMIT_DOC)
    ordering: OrderingRequest | None = Field(default=None, description=ORDERING_DOC)


class DeliveryOptions(ClosedModel):
    """The delivery options in force; every field is always present."""

    filter: dict[str, Any] | None = Field(description=FILTER_DOC)
    headers: list[StaticHeaderRead] = Field(description=HEADERS_DOC + " `[]`: none.")
    rate_limit_per_second: int | None = Field(description=RATE_LIMIT_DOC)
    ordering: Ordering | None = Field(description=ORDERING_DOC)
