"""Destinations: the sink vocabulary, the one ``Sink`` interface and one module per sink kind."""
