"""The publisher service of seed 000: one event or a batch onto the backbone, a result for each (N33)."""
