"""streaming-hub: a Kafka-backed fan-out delivery hub for CloudEvents."""

__version__ = "0.1.0"
