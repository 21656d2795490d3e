"""The hub's own ``hub.*`` lifecycle events: which exist (:mod:`.event_types`) and publishing one (:mod:`.publisher`)."""
