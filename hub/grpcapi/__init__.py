"""The hub's gRPC server: the seed 000 services and the standard health service on one port (E10)."""
