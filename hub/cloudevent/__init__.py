"""The CloudEvents 1.0 codec over Kafka: both content modes, decoded and encoded, and the attribute rules.

One source of truth for what a hub event is on the wire: ``hub ingest`` decodes with
:mod:`hub.cloudevent.decode`, and whatever publishes (``hub send``, the lifecycle events, an HTTP
publish route) encodes with :mod:`hub.cloudevent.encode`, which checks the same attribute rules
(:mod:`hub.cloudevent.attributes`) before a record is produced.
"""
