"""The event log keeps a binary-mode payload as the producer sent it (json column, not jsonb)."""

from __future__ import annotations

import uuid

from tests.ingest.conftest import ingest_worker, rows, stored, wait_until

# Key order, a repeated key, a number past 64 bits, a trailing zero and spacing: jsonb would
# rewrite every one of these.
PAYLOAD = b'{"zeta": 1, "alpha": {"b": 2, "a": 1}, "big": 123456789012345678901234567890, "amount": 1.50, "alpha": 3}'


def test_binary_mode_data_is_stored_byte_for_byte(lane, tenant):
    """N18: what a subscriber is later given is the producer's document, not a re-encoding of it."""
    headers = {"ce_specversion": b"1.0", "ce_id": str(uuid.uuid4()).encode(), "ce_source": b"ledger",
               "ce_type": b"transaction.posted", "ce_tenantid": tenant.encode(), "content-type": b"application/json"}
    lane.send((headers, b"acc-1", PAYLOAD))
    with ingest_worker():
        wait_until(lambda: stored(tenant) == 1)
    [(data, attributes)] = rows("SELECT data::text, attributes::text FROM event_log WHERE tenant_id = %s", (tenant,))
    assert data.encode() == PAYLOAD
    assert '"tenantid":"' + tenant + '"' in attributes.replace(" ", "")
