"""The tenant's durable queues as a read-only inventory under ``/v1`` (seed 000 defines no list; N76)."""
