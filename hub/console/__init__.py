"""The web console: static pages served at ``/console`` that run on the hub's public API."""
