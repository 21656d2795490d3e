"""The relay's way onto RabbitMQ: event-log rows as messages on their tenant's exchange, every one confirmed (N65).

It publishes through the hub's lean AMQP client (:mod:`hub.amqp.client`), the one the RabbitMQ sink uses:
a page's publishes leave in one socket write and each waits for its own confirm. A message is not
``mandatory``: an event that no queue's bindings select is dropped by the broker, as a topic exchange
does, rather than sent back. The body is the seed's consumer ``Event`` as JSON (hub.consumer.messages);
the event-log position (``message_id`` too) and the resource id ride as headers.
"""

from __future__ import annotations

from hub.consumer import messages
from hub.consumer.filters import routing_key
from hub.consumer.topology import connect_lean, tenant_exchange
from hub.amqp.client import AmqpConnection, Channel, PropertiesEncoder

PERSISTENT = 2  # AMQP delivery mode: the broker writes the message to disk
CONTENT_TYPE = "application/json"
APP_ID = "streaming-hub-relay"
CONFIRM_SECONDS = 30.0  # a confirm later than this fails the page: the relay starts the round again


class RelayRefused(Exception):
    """The broker nacked a message of the page."""


def resource_of(attributes: dict | None) -> str | None:
    """The ``resourceid`` extension of a row's attributes, when it is a string."""
    value = (attributes or {}).get("resourceid")
    return value if isinstance(value, str) else None


class Outlet:
    """One connection and confirming channel, and the tenant exchanges already declared on it (a declare
    per page cost a broker round trip each time). Open it with :meth:`open`."""

    def __init__(self, connection: AmqpConnection, channel: Channel) -> None:
        self.connection, self.channel = connection, channel
        self._declared: set[str] = set()
        self._properties = PropertiesEncoder()

    @classmethod
    async def open(cls, url: str | None = None) -> Outlet:
        """Connect to the hub's broker (``rabbitmq_url`` unless URL) and open a confirming channel."""
        connection = await connect_lean(url)
        try:
            return cls(connection, await connection.channel(confirm=True))
        except BaseException:
            connection.abort()
            raise

    @property
    def is_closed(self) -> bool:
        return self.channel.is_closed

    def _encoded(self, row: tuple) -> tuple[str, bytes, bytes, str]:
        """(routing key, properties, body, message id) of one event-log row."""
        seq, event_type, source, attributes, data, event_time, received_at = row
        body = messages.log_row_body(event_type, source, attributes, data, event_time, received_at)
        resource = resource_of(attributes)
        headers = {messages.SEQ_HEADER: str(seq)}
        if resource:
            headers[messages.RESOURCE_HEADER] = resource
        properties = self._properties.encode(content_type=CONTENT_TYPE, headers=headers, delivery_mode=PERSISTENT,
                                             message_id=str(seq), message_type=None, app_id=APP_ID)
        return routing_key(event_type, resource), properties, body, str(seq)

    async def publish(self, tenant_id: str, rows: list[tuple]) -> None:
        """Publish ROWS to the tenant's exchange and wait for every confirm; raises when one is missing."""
        exchange = tenant_exchange(tenant_id)
        if exchange not in self._declared:
            await self.channel.exchange_declare(exchange, passive=False, exchange_type="topic", durable=True)
            self._declared.add(exchange)
        confirms = []
        for row in rows:
            key, properties, body, message_id = self._encoded(row)
            confirms.append(self.channel.publish(exchange=exchange, routing_key=key, properties=properties,
                                                 message_id=message_id, body=body, timeout=CONFIRM_SECONDS,
                                                 mandatory=False))
        for confirm in confirms:  # in turn: each is settled by the reader, nothing to schedule
            if await confirm is not True:
                raise RelayRefused("the broker did not take an event of the page")

    async def close(self) -> None:
        await self.connection.close()
