"""The pull inbox: ``GET /v1/events``, a pull subscription's events read from the tenant log."""
