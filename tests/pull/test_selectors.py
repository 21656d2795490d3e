"""Read-time filtering by the subscription's selectors, and the bounded scan (R-pullEvents-12, -05, -06)."""

from __future__ import annotations

import uuid

from tests.pull.conftest import cursor_of, event, store, store_many


def _keys(catalog, source: str, *majors: int) -> tuple[str, str]:
    """Two fresh event keys in the catalog under ``source``, each at every given major."""
    resource = f"r{uuid.uuid4().hex[:8]}"
    catalog.add(source, [(resource, name, major) for name in ("created", "voided") for major in majors])
    return f"{resource}.created", f"{resource}.voided"


def test_event_types_select_and_seqs_have_gaps(inbox, tenant, catalog):
    """R-pullEvents-12: the stream ascends with gaps; the numbers between are events it does not receive."""
    created, voided = _keys(catalog, "ledger", 1)
    sub = inbox.subscribe(event_types=[created])
    seqs = store(event(tenant, event_type=created), event(tenant, event_type=voided),
                 event(tenant, event_type=created), event(tenant, event_type=voided))
    assert inbox.seqs(sub) == [seqs[0], seqs[2]]
    assert cursor_of(sub) == seqs[3]  # the filtered-out tail is scanned once, not again


def test_origin_schema_major_and_event_majors(inbox, tenant, catalog):
    """The selectors ingest matches on: origin, the pinned major, and a per-type major (event_majors)."""
    created, voided = _keys(catalog, "billing", 1, 2)
    by_origin = inbox.subscribe(event_types=[created], origin="billing")
    pinned = inbox.subscribe(event_types=[created, voided], schema_major=2, event_majors={voided: 1})
    seqs = store(event(tenant, event_type=created, source="billing"),
                 event(tenant, event_type=created, source="ledger"),
                 event(tenant, event_type=created, source="billing", version="2.1.0"),
                 event(tenant, event_type=voided, source="billing", version="1.0.0"),
                 event(tenant, event_type=voided, source="billing", version="2.0.0"))
    assert inbox.seqs(by_origin) == [seqs[0]]
    assert inbox.seqs(pinned) == [seqs[2], seqs[3]]


def test_delegated_scope_receives_only_its_party(inbox, tenant, make_token):
    """N16: a delegated subscription reads only events whose delegatedscope equals its scope."""
    party = make_token(delegated_scope="UGFydHktQQ==")
    delegated = inbox.subscribe(token=party)
    tenant_wide = inbox.subscribe()
    seqs = store(event(tenant, scope="UGFydHktQQ=="), event(tenant), event(tenant, scope="UGFydHktQg=="))
    assert inbox.seqs(delegated) == [seqs[0]]
    assert inbox.seqs(tenant_wide) == seqs


def test_other_tenants_events_are_never_read(inbox, tenant):
    """The scan covers the caller's tenant's log only."""
    sub = inbox.subscribe()
    store(event("t-other-" + uuid.uuid4().hex[:8]), event(tenant, data={"mine": True}))
    assert [item["payload"] for item in inbox.page(sub)["events"]] == [{"mine": True}]


def test_a_full_page_acknowledges_only_what_it_returned(inbox, tenant, catalog):
    """R-pullEvents-05: the cursor stops at the last returned seq, so a match after it in the same scan is kept."""
    created, voided = _keys(catalog, "ledger", 1)
    sub = inbox.subscribe(event_types=[created])
    seqs = store(*[event(tenant, event_type=kind) for kind in (created, created, voided, voided, created)])
    page = inbox.page(sub, limit=2)
    assert [item["seq"] for item in page["events"]] == seqs[:2] and page["next_cursor"] == seqs[1]
    assert cursor_of(sub) == seqs[1]
    assert inbox.seqs(sub, limit=2) == [seqs[4]]
    assert cursor_of(sub) == seqs[4]


def test_scan_is_bounded_and_the_cursor_advances_over_what_it_scanned(inbox, tenant, catalog, override_settings):
    """A subscription that matches nothing in a long log catches up over several bounded reads.

    Each read examines at most HUB_PULL_SCAN_ROWS rows, acknowledges them, and says
    ``X-Pull-Caught-Up: false`` until a read reaches the end of the log.
    """
    override_settings(pull_scan_rows=40)
    created, voided = _keys(catalog, "ledger", 1)
    sub = inbox.subscribe(event_types=[created])
    seqs = store(*[event(tenant, event_type=voided) for _ in range(100)], event(tenant, event_type=created))
    positions, caught_up = [], []
    for _ in range(5):
        response = inbox.read(sub, limit=10)
        assert response.status_code == 200
        positions.append(int(response.headers["X-Pull-Position"]))
        caught_up.append(response.headers["X-Pull-Caught-Up"])
        if response.json()["events"]:
            assert [item["seq"] for item in response.json()["events"]] == [seqs[-1]]
            break
        assert response.json() == {"events": [], "next_cursor": None}
        assert cursor_of(sub) == positions[-1]
    assert positions == [seqs[39], seqs[79], seqs[100]]
    assert caught_up == ["false", "false", "true"]


def test_a_page_larger_than_the_scan_bound_still_fills(inbox, tenant, override_settings):
    """The bound never cuts a page below its limit: a read may always examine ``limit`` rows."""
    override_settings(pull_scan_rows=10)
    sub = inbox.subscribe()
    seqs = store_many(tenant, 30)
    page = inbox.page(sub, limit=25)
    assert [item["seq"] for item in page["events"]] == seqs[:25] and page["next_cursor"] == seqs[24]


def test_payload_filter_applies_at_read_time(inbox, tenant):
    """N53: the pull inbox applies the payload filter set on the delivery options (N67) as ingest matched it."""
    big = inbox.subscribe(payload_filter={"data.n": {"$gte": 2}})
    odd = inbox.subscribe(payload_filter={"data.n": {"$in": [1, 3]}})
    seqs = store_many(tenant, 4)
    assert inbox.seqs(big) == seqs[2:]
    assert inbox.seqs(odd) == [seqs[1], seqs[3]]
    assert cursor_of(odd) == seqs[3]
