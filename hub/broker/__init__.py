"""The event broker of seed 003 on the hub's event log: publish to topics, history, purge, retention
configs and live subscribers (docs/contract-notes.md, the broker note)."""
