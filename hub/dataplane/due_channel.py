"""The PostgreSQL channel on which ingest announces newly due delivery jobs to the delivery workers.

Ingest notifies inside the transaction that writes the jobs (:func:`notify_due`), so PostgreSQL
sends the notification at COMMIT, never before the jobs are visible; each ``hub deliver`` process
LISTENs on :data:`CHANNEL` (``workers/deliver/wakeup.py``). The notification is only a hint:
the claim loops also poll, so a lost one costs at most one poll interval.
"""

from __future__ import annotations

import psycopg

CHANNEL = "hub_delivery_due"
NOTIFY_SQL = f"SELECT pg_notify('{CHANNEL}', '')"  # identical notifications of one transaction fold into one


def notify_due(cursor: psycopg.Cursor) -> None:
    """Inside a transaction that wrote due jobs: announce them to the delivery workers at COMMIT."""
    cursor.execute(NOTIFY_SQL)
