"""The claim of ordered jobs against a model (N77, N78): a hypothesis state machine drives the real
statements (ingest's enqueue, the engine's claim and settle, an operator's resume) on PostgreSQL, with
two workers whose leases may expire, and checks after every step:

- a key never has two jobs claimed under live leases, across both workers and through lease expiry;
- per key, the job claimed is always the key's earliest event that has not ended (event order);
- a blocked key holds every later job (none due) until resumed; a skip moves the key on, a retry
  sends the head's event again;
- the stored shape: a key row exactly while the key has an event not ended; one due job (or the
  blocked dead-lettered head) per row; every later event of the key waiting.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import psycopg
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from hub.dataplane import ordering
from hub.dataplane.models import JobPriority, JobState
from hub.ids import new_id
from workers.deliver import store

KEYS = ("a", "b", "c")
WORKERS = (0, 1)
# How a try ends, as the settle records it: the job's new state, and whether the policy blocks.
ENDINGS = {"delivered": (JobState.delivered, False), "failed": (JobState.retrying, False),
           "dead_lettered_skip": (JobState.dead_lettered, False), "dead_lettered_block": (JobState.dead_lettered, True)}
Held = tuple[store.ClaimedJob, datetime]  # a claimed job and its claim's lease token


class OrderedClaims(RuleBasedStateMachine):
    """One ordered subscription of a fresh tenant; the model is each key's events and how far they ended."""

    url = ""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.sub, self.tenant = uuid.uuid4(), f"t-{uuid.uuid4().hex[:10]}"
        self.db = psycopg.connect(self.url, autocommit=True)
        self.workers = [self.loop.run_until_complete(psycopg.AsyncConnection.connect(self.url, autocommit=True))
                        for _ in WORKERS]
        self.seq = 0
        self.events: dict[str, list[int]] = {key: [] for key in KEYS}  # each key's event seqs, in order
        self.ended: dict[str, int] = dict.fromkeys(KEYS, 0)  # how many of them ended
        self.blocked: set[str] = set()
        self.held: dict[int, list[Held]] = {w: [] for w in WORKERS}
        self.live: dict[str, uuid.UUID] = {}  # key -> the job claimed under a live lease

    def head(self, key: str) -> int | None:
        events, ended = self.events[key], self.ended[key]
        return events[ended] if ended < len(events) else None

    @rule(keys=st.lists(st.sampled_from(KEYS), min_size=1, max_size=4))
    def ingest(self, keys: list[str]) -> None:
        jobs = []
        for key in keys:
            self.seq += 1
            self.events[key].append(self.seq)
            jobs.append(ordering.OrderedJob(self.sub, key, self.seq, self.tenant, new_id()))
        with self.db.transaction():
            ordering.run(self.db.cursor(), ordering.enqueue(jobs, priority=0))

    @rule(worker=st.sampled_from(WORKERS))
    def claim(self, worker: int) -> None:
        claim = self.loop.run_until_complete(store.claim(self.workers[worker], limit=1000, lease_seconds=60))
        for job in claim.jobs:
            if job.subscription_id != self.sub:
                continue  # another test's leftover job
            key = job.ordering_key
            assert key not in self.live, f"{key}: a second job claimed while one is under a live lease"
            assert key not in self.blocked, f"{key}: claimed while blocked"
            assert job.event_seq == self.head(key), f"{key}: claimed {job.event_seq}, its next is {self.head(key)}"
            self.live[key] = job.id
            self.held[worker].append((job, claim.lease))

    @rule(worker=st.sampled_from(WORKERS))
    def lease_expires(self, worker: int) -> None:
        """Time passes beyond the worker's lease: its jobs come due again; its token still matches."""
        ids = [job.id for job, _ in self.held[worker]]
        self.db.execute("UPDATE delivery_jobs SET next_attempt_at = now() - interval '1 second' WHERE id = ANY(%s)",
                        (ids,))
        self.live = {key: job for key, job in self.live.items() if job not in ids}

    @rule(worker=st.sampled_from(WORKERS), ending=st.sampled_from(sorted(ENDINGS)))
    def settle(self, worker: int, ending: str) -> None:
        """The worker records every job it holds (a batch per lease it claimed under); a job whose lease
        another claim took since records nothing."""
        held, self.held[worker] = self.held[worker], []
        state, blocks = ENDINGS[ending]
        recorded = self.loop.run_until_complete(self._settle(worker, held, state.value, blocks))
        for job, lease in held:
            if self.live.get(job.ordering_key) == job.id:
                del self.live[job.ordering_key]
            if (job.id, lease) not in recorded or state is JobState.retrying:
                continue
            if blocks:
                self.blocked.add(job.ordering_key)
            else:
                self.ended[job.ordering_key] += 1

    async def _settle(self, worker: int, held: list[Held], state: str, blocks: bool) -> set[tuple[uuid.UUID, datetime]]:
        recorded: set[tuple[uuid.UUID, datetime]] = set()
        now, conn = datetime.now(UTC), self.workers[worker]
        for lease in {lease for _, lease in held}:
            settled = [store.Settled(job, state, job.attempts + 1, now, "", None) for job, at in held if at == lease]
            async with conn.transaction():
                ids = (await store.settle(conn.cursor(), settled=settled, lease=lease, now=now,
                                          blocking=frozenset({self.sub}) if blocks else frozenset())).ids
            recorded |= {(job_id, lease) for job_id in ids}
        return recorded

    @rule(key=st.sampled_from(KEYS), skip=st.booleans())
    def resume(self, key: str, skip: bool) -> None:
        with self.db.transaction():
            steps = ordering.skip_head(self.sub, key) if skip else ordering.retry_head(self.sub, key)
            resumed = ordering.run(self.db.cursor(), steps)
        assert (resumed is not None) == (key in self.blocked)
        if key in self.blocked:
            self.blocked.discard(key)
            self.ended[key] += 1 if skip else 0

    @invariant()
    def stored_shape_matches_the_model(self) -> None:
        jobs = self.db.execute("SELECT ordering_key, event_seq, state FROM delivery_jobs WHERE subscription_id = %s",
                               (self.sub,)).fetchall()
        rows = dict(self.db.execute("""SELECT k.ordering_key, j.event_seq FROM ordered_keys AS k
                                         JOIN delivery_jobs AS j ON j.id = k.head_job_id
                                        WHERE k.subscription_id = %s""", (self.sub,)).fetchall())
        for key in KEYS:
            head = self.head(key)
            due = [seq for k, seq, state in jobs if k == key and state in ("pending", "retrying")]
            waiting = sorted(seq for k, seq, state in jobs if k == key and state == "waiting")
            assert rows.get(key) == head, f"{key}: key row's head {rows.get(key)}, model {head}"
            assert due == ([] if head is None or key in self.blocked else [head]), f"{key}: due {due}"
            assert waiting == self.events[key][self.ended[key] + 1:], f"{key}: waiting {waiting}"
        # A retried head is claimed as its key's head (before the backlog, N83); a waiting job is still live.
        priorities = self.db.execute("SELECT state, priority FROM delivery_jobs WHERE subscription_id = %s "
                                     "AND state IN ('retrying', 'waiting')", (self.sub,)).fetchall()
        for state, priority in priorities:
            expected = JobPriority.head if state == JobState.retrying.value else JobPriority.live
            assert priority == expected.value, f"a {state} job has priority {priority}"

    def teardown(self) -> None:
        self.db.execute("UPDATE delivery_jobs SET state = 'delivered' WHERE subscription_id = %s", (self.sub,))
        self.db.execute("DELETE FROM ordered_keys WHERE subscription_id = %s", (self.sub,))
        self.db.close()
        for conn in self.workers:
            self.loop.run_until_complete(conn.close())
        self.loop.close()


def test_ordered_claims_follow_the_model(deliver_db: str) -> None:
    OrderedClaims.url = deliver_db
    run_state_machine_as_test(OrderedClaims, settings=settings(
        max_examples=40, stateful_step_count=30, deadline=None, derandomize=True,
        suppress_health_check=[HealthCheck.too_slow]))

