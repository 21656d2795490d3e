"""Destination operations: ping, verify, queue credentials, AWS delegated grants and setup artifacts."""
