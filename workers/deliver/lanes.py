"""The fair claim (N98): every lane with due work gets its turn and its weighted share of a batch.

A **lane** is one subscription of one tenant (``tenant_id``, ``subscription_id``). One claim statement:

1. **Visits** up to ``lanes`` lanes with open work, in (tenant, subscription) order from the worker's
   cursor, wrapping round: a loose index scan of ``ix_delivery_jobs_lane``, one probe a lane, so a lane's
   backlog costs nothing to step over. A lane whose destination hangs takes at most its free request
   slots in this worker (``caps``; none free: it is left out of this claim).
2. **Shares** the batch among the visited lanes with a job due now (a lane whose jobs are all leased or
   due later takes no share): a lane's weight is its tenant's weight (``HUB_DELIVER_TENANT_WEIGHTS``, 1 unless
   set) divided by the number of that tenant's lanes visited, so tenants share by weight and a tenant's
   share is split evenly across its destinations. Each lane takes up to ``ceil(limit × weight / total)``
   due jobs (its fair share, at most ``lane_max``), heads first, then live jobs, then bulk (N58, at most ``bulk`` a claim).
3. **Fills** the room the lanes with little due work left, from the lanes with more due jobs than their
   share (each lane's first pass reads one job past its share to know), split by weight: a lone flooding
   lane still gets whole batches.
4. **Takes** the candidates (each locked as it is read, ``SKIP LOCKED``, so concurrent claims take a lane's
   next jobs rather than the same ones) live before bulk, each lane's first job before any lane's second (every lane
   with due work gets its turn in this claim when there are no more of them than ``limit``), then in
   virtual-time order (a job's rank in its lane divided by the lane's weight), at most ``limit``, and moves
   them under the lease, found by the place (``ctid``) they were read and locked at.

Every read is an index range scan bounded by a lane's share or the room, so the claim's work is bounded
by the batch and the lanes visited, never by a backlog. A lane's jobs are one tenant's: on a database
distributed by tenant, the same statement restricted to one shard's tenants (:func:`for_tenants`) stays on
that shard (N109: how ``hub deliver`` claims on Citus, workers/deliver/shards.py).
"""

from __future__ import annotations

from hub.dataplane.models import DUE_JOB_STATES, JobPriority, state_in

DUE = state_in(DUE_JOB_STATES)
NIL_UUID = "00000000-0000-0000-0000-000000000000"
# Where a claim or a settle restricted to some tenants (one shard group's, on Citus: N109) names them: before
# each read of delivery_jobs and its update. Nothing on plain PostgreSQL (the statement is the same text).
ONLY = "/*tenants*/"
TENANTS_FILTER = "tenant_id = ANY(%(tenants)s::text[]) AND "


def for_tenants(sql: str, restricted: bool) -> str:
    """``sql`` restricted to the tenants ``%(tenants)s`` at each :data:`ONLY` (``restricted``), or as it was."""
    return sql.replace(ONLY, TENANTS_FILTER if restricted else "")


# One step of the loose index scan: the first lane after (t, s) that has open work.
_NEXT_LANE = f"""SELECT tenant_id AS t, subscription_id AS s FROM delivery_jobs
         WHERE {ONLY}{DUE} AND (tenant_id, subscription_id) > ({{t}}, {{s}}){{upto}}
         ORDER BY tenant_id, subscription_id LIMIT 1"""
_UPTO = " AND (tenant_id, subscription_id) <= (%(after_t)s, %(after_s)s::uuid)"


# Whether a visited lane has a job due now that this claim may take (bulk ones only with a bulk allowance): a
# lane whose jobs are all leased or due later takes no share, so it leaves none unused. One index probe a
# priority, each priority a constant (an index condition, as the lane's reads are).
_DUE_AT = (f"EXISTS (SELECT 1 FROM delivery_jobs WHERE {ONLY}{DUE} AND tenant_id = v.t AND subscription_id = v.s "
           "AND priority = {priority} AND next_attempt_at <= now())")
_DUE_NOW = (f"({_DUE_AT.format(priority=JobPriority.head.value)} OR {_DUE_AT.format(priority=JobPriority.live.value)} "
            f"OR (%(bulk)s > 0 AND {_DUE_AT.format(priority=JobPriority.bulk.value)}))")


def _lane_scan(name: str, start_t: str, start_s: str, upto: str) -> str:
    """A recursive loose scan named ``name`` of the lanes after (start_t, start_s) (up to the cursor when
    ``upto``)."""
    first = _NEXT_LANE.format(t=start_t, s=start_s, upto=upto)
    step = _NEXT_LANE.format(t=f"{name}.t", s=f"{name}.s", upto=upto)
    return f"""{name}(t, s) AS (
    ({first})
    UNION ALL
    SELECT n.t, n.s FROM {name} CROSS JOIN LATERAL ({step}) AS n
)"""


def _lane_jobs(count: str, skip: str = "0") -> str:
    """A lane's due jobs (``q``: the lane's row), heads, then live, then bulk, each earliest first: at most
    ``count`` after the first ``skip``. Each priority is one range scan of the lane index."""
    def branch(priority: JobPriority, limit: str) -> str:
        # Locked as read, skipping what another claim holds: concurrent claims (a process's pipelines, other
        # processes) take the next jobs of a lane instead of all choosing its first ones.
        return (f"SELECT * FROM (SELECT ctid AS tid, id, priority FROM delivery_jobs WHERE {ONLY}{DUE} AND tenant_id = q.t AND "
                f"subscription_id = q.s AND priority = {priority.value} AND next_attempt_at <= now() "
                f"ORDER BY next_attempt_at LIMIT {limit} FOR UPDATE SKIP LOCKED) AS {priority.name}")
    upto = f"({skip}) + ({count})"
    # Heads first, in at most half the claim (N83): a lane of many keys still moves its live jobs. The cap is
    # the claim's, not the pass's, so the fill's rows continue the first pass's in one order.
    heads = f"LEAST({upto}, (%(limit)s + 1) / 2)"
    branches = " UNION ALL ".join((branch(JobPriority.head, heads), branch(JobPriority.live, upto),
                                   branch(JobPriority.bulk, f"LEAST({upto}, %(bulk)s)")))
    return f"""SELECT u.tid, u.id, u.priority, u.rank
        FROM (SELECT b.*, row_number() OVER () AS rank FROM (SELECT * FROM ({branches}) AS b LIMIT {upto}) AS b) AS u OFFSET ({skip})"""


FAIR_CLAIM_SQL = f"""
WITH RECURSIVE
{_lane_scan("ahead", "%(after_t)s", "%(after_s)s::uuid", "")},
{_lane_scan("behind", "''", f"'{NIL_UUID}'::uuid", _UPTO)},
visited AS MATERIALIZED (
    SELECT t, s FROM (
        (SELECT t, s FROM ahead LIMIT %(lanes)s) UNION ALL (SELECT t, s FROM behind LIMIT %(lanes)s)
    ) AS v LIMIT %(lanes)s
),
lanes AS MATERIALIZED (
    SELECT v.t, v.s, COALESCE(w.weight, 1.0) / count(*) OVER (PARTITION BY v.t) AS weight,
           LEAST(%(lane_max)s, COALESCE(c.cap, %(lane_max)s)) AS cap
      FROM visited AS v
      LEFT JOIN unnest(%(weight_tenants)s::text[], %(weights)s::float8[]) AS w(tenant, weight) ON w.tenant = v.t
      LEFT JOIN unnest(%(capped)s::uuid[], %(caps)s::int[]) AS c(sub, cap) ON c.sub = v.s
     WHERE COALESCE(c.cap, 1) > 0 AND {_DUE_NOW}
),
shares AS MATERIALIZED (
    SELECT t, s, weight, cap, LEAST(cap, ceil(%(limit)s * weight / sum(weight) OVER ()))::int AS share
      FROM lanes
),
peeked AS MATERIALIZED (
    SELECT q.t, q.s, q.weight, q.share, q.cap, j.tid, j.id, j.priority, j.rank
      FROM shares AS q CROSS JOIN LATERAL ({_lane_jobs("q.share + 1")}) AS j
),
first AS (SELECT * FROM peeked WHERE rank <= share),
filled AS MATERIALIZED (
    SELECT f.t, f.s, f.weight, f.share, f.cap FROM peeked AS f
     GROUP BY f.t, f.s, f.weight, f.share, f.cap HAVING count(*) > f.share
),
room AS (
    SELECT GREATEST(0, %(limit)s - (SELECT count(*) FROM first))::int AS n,
           (SELECT sum(weight) FROM filled) AS weight
),
fill AS (
    SELECT q.t, q.s, q.weight, j.tid, j.id, j.priority, j.rank
      FROM (SELECT f.t, f.s, f.weight, f.share,
                   LEAST(f.cap - f.share, ceil(room.n * f.weight / room.weight))::int AS extra
              FROM filled AS f, room WHERE room.n > 0 AND f.share < f.cap) AS q
      CROSS JOIN LATERAL ({_lane_jobs("q.extra", "q.share")}) AS j
),
chosen AS (
    SELECT tid FROM (
        SELECT tid, id, priority, rank > 1 AS again, rank / weight AS tag,
               count(*) FILTER (WHERE priority = {JobPriority.bulk.value})
                   OVER (ORDER BY priority = {JobPriority.bulk.value}, rank > 1, rank / weight, id) AS bulk_before
          FROM (SELECT tid, id, priority, rank, weight FROM first
                UNION ALL SELECT tid, id, priority, rank, weight FROM fill) AS c
    ) AS ranked
     WHERE priority <> {JobPriority.bulk.value} OR bulk_before <= %(bulk)s
     ORDER BY priority = {JobPriority.bulk.value}, again, tag, id
     LIMIT %(limit)s
),
last_visited AS (
    SELECT t, s FROM visited ORDER BY (t, s) <= (%(after_t)s, %(after_s)s::uuid) DESC, t DESC, s DESC LIMIT 1
),
claimed AS (
    -- The chosen rows are this claim's already (locked as read), so they are found by their place in the
    -- table, not looked up again by id: two primary-key descents a job were a third of the claim's time.
    -- A row changed since it was read cannot match its old place, and the conditions are checked again.
    UPDATE delivery_jobs AS j
       SET next_attempt_at = now() + make_interval(secs => %(lease)s),
           lease_until = now() + make_interval(secs => %(lease)s)
     WHERE {ONLY}j.ctid = ANY(ARRAY(SELECT tid FROM chosen)) AND {DUE} AND j.next_attempt_at <= now()
    RETURNING {{returning}}, j.lease_until
)
SELECT claimed.*, last_visited.t, last_visited.s
  FROM (SELECT 1) AS one LEFT JOIN claimed ON true LEFT JOIN last_visited ON true
"""


def parse_weights(text: str) -> dict[str, float]:
    """``HUB_DELIVER_TENANT_WEIGHTS``: ``tenant=weight`` pairs, comma-separated; a weight must be positive."""
    weights: dict[str, float] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        tenant, sep, value = item.rpartition("=")
        if not sep or not tenant.strip():
            raise ValueError(f"HUB_DELIVER_TENANT_WEIGHTS: {item!r} is not tenant=weight")
        weight = float(value)
        if not weight > 0:
            raise ValueError(f"HUB_DELIVER_TENANT_WEIGHTS: {tenant.strip()}'s weight must be positive")
        weights[tenant.strip()] = weight
    return weights


class LaneCursor:
    """One claim loop's place in the lane order (where its next claim starts visiting) and the weights. On
    Citus a place is kept per shard group (``group``: its shard; None on plain PostgreSQL), each its own
    lane order."""

    def __init__(self, *, weights: dict[str, float] | None = None, lanes: int = 256, lane_max: int = 128) -> None:
        self.tenants = list(weights or {})
        self.weights = [float(w) for w in (weights or {}).values()]
        self.lanes, self.lane_max = max(1, lanes), max(1, lane_max)
        self.places: dict[int | None, tuple[str, str]] = {}

    def params(self, *, limit: int, bulk: int, lease: float, caps: dict | None = None, group: int | None = None) -> dict:
        """The fair claim's parameters (``caps``: the most jobs a subscription's lane may take)."""
        caps = caps or {}
        after = self.places.get(group, ("", NIL_UUID))
        return {"limit": limit, "bulk": bulk, "lease": lease, "capped": list(caps), "caps": list(caps.values()), "lanes": self.lanes, "lane_max": self.lane_max,
                "after_t": after[0], "after_s": after[1],
                "weight_tenants": self.tenants, "weights": self.weights}

    def moved_to(self, tenant: str | None, subscription: object, group: int | None = None) -> None:
        """The last lane a claim visited: the next claim (of the same shard group) starts after it."""
        if tenant is not None and subscription is not None:
            self.places[group] = (tenant, str(subscription))
