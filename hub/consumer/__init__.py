"""The consumer service of seed 000: consumer queues on RabbitMQ fed from the event log (E11)."""
