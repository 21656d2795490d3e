"""The chaos ledger: the hub on private services, faults from a seeded schedule, an exact ledger.

Run ``python -m chaos`` (``make chaos``); ``--short`` is the five-fault form ``make test`` runs.
See docs/chaos.md.
"""
