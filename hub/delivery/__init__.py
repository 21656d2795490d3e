"""Synchronous probes of a destination (ping) through the production delivery path."""
