"""Retention: how long the event log, delivery jobs and attempts are kept, and the sweep."""
