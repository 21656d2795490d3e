"""The hub's settings, one typed group per feature and per worker, each read from ``HUB_*`` variables.

Every group reads the same environment names it always did (``HUB_DELIVER_BATCH_SIZE`` is still
``deliver_batch_size``), so nothing a user has set changes. :class:`hub.config.Settings` composes the
groups into the one object :func:`hub.config.get_settings` returns; a feature that needs only its own
group may annotate it as that group. This package imports nothing else of the hub.
"""
