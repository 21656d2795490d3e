"""Settings groups: SinkSettings."""

from __future__ import annotations

from hub.settings.base import HubSettingsGroup


class SinkSettings(HubSettingsGroup):
    """The queue sinks: RabbitMQ and AWS (SQS, EventBridge, delegated grants)."""

    rabbitmq_url: str = "amqp://hub:hub@127.0.0.1:55672/%2F"
    """AMQP URL of the RabbitMQ the tests and local stack use."""

    aws_endpoint_url: str = ""
    """AWS endpoint override (moto locally); empty: AWS itself."""

    aws_region: str = "us-east-1"
    """AWS region for SQS, EventBridge and STS when a subscription names none."""

    aws_hub_principal_arn: str = ""
    """The hub's own AWS principal ARN that delivery roles trust (empty: setup artifacts answer 500)."""

    aws_setup_template_url: str = ""
    """Public URL of `deploy/aws/delivery-role.yaml` for the CloudFormation quick-create link (empty: 500)."""

    aws_assume_role_seconds: int = 3600
    """Lifetime asked of STS for a delegated grant's session credentials."""

    aws_credential_refresh_seconds: int = 300
    """Assumed-role credentials are renewed this long before they expire."""

    sink_io_threads: int = 16
    """Threads per AWS sink for the blocking AWS SDK calls."""

    sqs_max_message_bytes: int = 1_048_576
    """Largest SQS message (body plus attributes); a larger one is dead-lettered unsent."""

    eventbridge_max_entry_bytes: int = 262_144
    """Largest EventBridge entry by AWS's size formula; a larger one is dead-lettered unsent."""

    rabbitmq_max_message_bytes: int = 16_777_216
    """Largest RabbitMQ message body the hub publishes; a larger one is dead-lettered unsent."""

    rabbitmq_connect_timeout_seconds: float = 5.0
    """Timeout of a RabbitMQ connect, login and channel open."""
