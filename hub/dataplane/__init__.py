"""The data plane's tables and signals: what ingest writes and the delivery and pull paths read."""
