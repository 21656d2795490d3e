"""What each deployed process needs from the settings object (hub/config.py), for the chart and compose tests."""

from __future__ import annotations

from pydantic import SecretStr

from hub.config import Settings

SETTINGS = {f"HUB_{name.upper()}" for name in Settings.model_fields}

# The settings whose value is a secret: the SecretStr fields, and the URLs that carry a password.
SECRET = {f"HUB_{name.upper()}" for name, field in Settings.model_fields.items() if field.annotation is SecretStr}
SECRET |= {"HUB_DATABASE_URL", "HUB_RABBITMQ_URL", "HUB_ENCRYPTION_KEYS"}

# Every process reaches PostgreSQL and Kafka, checks the sealing keys at start-up and checks tokens.
COMMON = {"HUB_DATABASE_URL", "HUB_KAFKA_BOOTSTRAP", "HUB_JWT_HS256_SECRET", "HUB_ENCRYPTION_KEYS"}
# Per process (the compose service / the chart's component): the listeners it must open beyond loopback.
# The API, gRPC and the consumer relay also reach the consumer service's RabbitMQ (HUB_RABBITMQ_URL).
RABBIT = {"HUB_RABBITMQ_URL"}
NEEDS = {
    "api": COMMON | RABBIT | {"HUB_API_HOST", "HUB_API_PORT"},
    "grpc": COMMON | RABBIT | {"HUB_GRPC_HOST", "HUB_GRPC_PORT"},
    "consumer-relay": COMMON | RABBIT | {"HUB_CONSUMER_RELAY_METRICS_HOST", "HUB_CONSUMER_RELAY_METRICS_PORT"},
    "ingest": COMMON | {"HUB_INGEST_METRICS_HOST", "HUB_INGEST_METRICS_PORT"},
    "deliver": COMMON | {"HUB_DELIVER_METRICS_HOST", "HUB_DELIVER_METRICS_PORT"},
    "dlq-observer": COMMON | {"HUB_DLQ_OBSERVER_METRICS_HOST", "HUB_DLQ_OBSERVER_METRICS_PORT"},
    "sweep": COMMON | {"HUB_INGEST_METRICS_HOST"},  # its port is `sweep --metrics-port`
    "migrate": {"HUB_DATABASE_URL", "HUB_ENCRYPTION_KEYS"},
}
