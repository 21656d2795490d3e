"""Producing to the Kafka backbone: one producer for everything the hub publishes (see :mod:`.producer`)."""
