"""The aws destination kind: its provider (destination rules, probes) and its sink (the send half)."""
