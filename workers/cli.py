"""The ``hub`` console script: the hub's own commands (:mod:`hub.cli`) and the worker commands.

It sits above the hub and every worker, so neither imports the other to compose one command line.
Each command imports its worker only when it runs, so ``hub migrate`` does not load the workers.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from hub.cli import app as hub_commands

app = typer.Typer(help=hub_commands.info.help, no_args_is_help=True)
app.registered_commands.extend(hub_commands.registered_commands)
# The argv that starts this command line in a child process (``hub dev``).
HUB_ARGV = [sys.executable, "-m", "workers.cli"]


@app.command()
def ingest() -> None:
    """Consume the producers' topics into the tenant event logs and delivery jobs."""
    from hub.preflight import require_dependencies
    from workers.ingest.main import run

    require_dependencies()
    run()


@app.command("dlq-observer")
def dlq_observer() -> None:
    """Record every dead-letter record as an observation for operators."""
    from hub.preflight import require_dependencies
    from workers.dlq_observer import run

    require_dependencies()
    run()


@app.command("consumer-relay")
def consumer_relay() -> None:
    """Relay stored events onto the consumer queues' exchanges and sweep idle queues (seed 000)."""
    from workers.consumer_relay import run
    from hub.preflight import require_dependencies

    require_dependencies(kafka=False)
    run()


@app.command()
def deliver(
    processes: Annotated[int, typer.Option(help="worker processes to run and supervise")] = 1,
    index: Annotated[int, typer.Option(help="this worker's number (offsets its metrics port)", hidden=True)] = 0,
) -> None:
    """Push due delivery jobs to their destinations."""
    from hub.preflight import require_dependencies
    from workers.deliver.main import run

    require_dependencies(kafka=False)
    run(processes=processes, index=index)


@app.command()
def dev(
    # One: a second member mostly got only the hub's lifecycle topic, and with it in the tree the produce-to-
    # receipt p99 at half the sustained rate was 111-2,395 ms in six runs, against 75-99 ms without (N85).
    ingest_workers: Annotated[int, typer.Option(help="ingestion worker processes")] = 1,
    deliver_workers: Annotated[int, typer.Option(help="delivery worker processes")] = 1,
) -> None:
    """Run the API and every worker in one supervised process tree (for a laptop)."""
    from hub.devtools.tree import run_dev_tree

    run_dev_tree(ingest_workers=ingest_workers, deliver_workers=deliver_workers, hub_argv=HUB_ARGV)


if __name__ == "__main__":
    app()
