"""Pure logic: the manifest JSON Schema, the highest-minor reduction and the configured targets."""

from __future__ import annotations

import json

import pytest

from hub.catalog.manifest import ManifestInvalid, ManifestUnparseable, manifest_validator, parse_manifest
from hub.catalog.targets import TargetConfigError, host_target, parse_entry

GOOD = {"source": "ledger", "topic": "lerian.streaming.ledger",
        "events": [{"resourceType": "transaction", "eventType": "posted", "schemaVersion": "1.2.0",
                    "dataSchema": "https://schemas.example.com/t.json", "description": "A transaction was posted."}]}


def with_event(**changes) -> dict:
    return {**GOOD, "events": [{**GOOD["events"][0], **changes}]}


def test_the_schema_is_valid_draft_2020_12():
    """N21: the manifest schema itself is a valid JSON Schema (draft 2020-12)."""
    assert manifest_validator().schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_d21_example_parses():
    """N21: the decision's example manifest is accepted as is."""
    parsed = parse_manifest(json.dumps(GOOD).encode())
    assert parsed.source == "ledger" and parsed.events[0].schema_major == 1


@pytest.mark.parametrize("document", [
    {"topic": "t", "events": []},                                   # no source
    {**GOOD, "events": "nope"},                                     # events not a list
    {**GOOD, "extra": 1},                                           # unknown property
    {**GOOD, "source": "streaming-hub"},                            # the hub's reserved source
    {**GOOD, "topic": "bad topic"},                                 # not a Kafka topic name
    with_event(schemaVersion="1.2"),                                # not semver
    with_event(schemaVersion="0.1.0"),                              # major 0 cannot be subscribed to
    with_event(resourceType="hub"),                                 # reserved resource type
    with_event(resourceType="a.b"),                                 # a dot would make eventKey ambiguous
    with_event(eventType=""),
    with_event(description=5),
    [GOOD],                                                         # not an object
])
def test_schema_breaking_manifests_are_invalid(document):
    """R-getCatalog-23: JSON that breaks the manifest contract is invalid_manifest."""
    with pytest.raises(ManifestInvalid):
        parse_manifest(json.dumps(document).encode())


@pytest.mark.parametrize("body", [b"", b"{", b"<html/>", b"\xff\xfe", b'{"a": NaN}'])
def test_unparseable_bodies(body):
    """R-getCatalog-23: a body that is not JSON is a fetch failure, not an invalid manifest."""
    with pytest.raises(ManifestUnparseable):
        parse_manifest(body)


def test_invalid_manifest_message_carries_no_raw_text():
    """R-getCatalog-22: the failure never carries the producer's raw text."""
    with pytest.raises(ManifestInvalid) as caught:
        parse_manifest(json.dumps(with_event(schemaVersion="secret-token-123")).encode())
    assert "secret-token-123" not in str(caught.value)


@pytest.mark.parametrize(("url", "target"), [
    ("http://ledger.internal/manifest.json", "ledger.internal"),
    ("http://Ledger.Internal:80/m", "ledger.internal"),
    ("https://ledger.internal:443/m", "ledger.internal"),
    ("http://ledger.internal:8080/m", "ledger.internal:8080"),
    ("https://ledger.internal:80/m", "ledger.internal:80"),
    ("http://[::1]:9000/m", "[::1]:9000"),
])
def test_single_tenant_target_is_host_and_non_default_port(url, target):
    """R-getCatalog-18: single-tenant target = manifest URL host, plus the port when not the default."""
    assert host_target(url) == target


@pytest.mark.parametrize(("entry", "multi"), [
    ("ftp://ledger/m", False), ("ledger.internal/m", False), ("http://user:pw@ledger/m", False),
    ("http://ledger/m", True), ("=http://ledger/m", True), ("bad label=http://ledger/m", True),
])
def test_bad_entries_are_refused(entry, multi):
    """R-getCatalog-18: an entry that cannot name a target is a configuration error."""
    with pytest.raises(TargetConfigError):
        parse_entry(entry, multi_tenant=multi)


def test_multi_tenant_entry_is_label_equals_url():
    """R-getCatalog-18: multi-tenant target = the service label."""
    target = parse_entry("ledger=http://ledger.internal:8080/manifest.json?x=1", multi_tenant=True)
    assert (target.target, target.manifest_url) == ("ledger", "http://ledger.internal:8080/manifest.json?x=1")
