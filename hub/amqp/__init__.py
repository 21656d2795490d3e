"""The hub's lean AMQP 0-9-1 client: what the RabbitMQ sink and the consumer relay publish with."""
