"""One provider per sink kind: what the hub knows and does for that kind of destination.

A provider validates its endpoint and credential, shows the endpoint, probes the destination, builds
setup artifacts where the kind has them and names the sink class that sends. ``registry`` lists them;
nothing outside this package compares a sink kind.
"""
