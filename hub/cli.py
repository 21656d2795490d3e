"""The hub's own commands: the API, the gRPC server, sweeps, migrations, send/listen, tokens, OpenAPI and rekey.

The ``hub`` console script is :mod:`workers.cli`, which adds the worker commands (``ingest``,
``deliver``, ``dlq-observer``, ``dev``) to these: the hub package never imports a worker.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

app = typer.Typer(help="streaming-hub: Kafka-backed fan-out delivery hub", no_args_is_help=True)


@app.command()
def api(
    host: Annotated[Optional[str], typer.Option(help="bind address (default: HUB_API_HOST)")] = None,
    port: Annotated[Optional[int], typer.Option(help="bind port (default: HUB_API_PORT)")] = None,
    workers: Annotated[Optional[int], typer.Option(help="uvicorn worker processes (default: HUB_API_WORKERS)")] = None,
) -> None:
    """Serve the HTTP API."""
    import uvicorn

    from hub.config import get_settings
    from hub.httpserver import http_protocol
    from hub.preflight import require_dependencies

    require_dependencies()
    settings = get_settings()
    uvicorn.run(
        "hub.app:serve_app", factory=True, host=host or settings.api_host, port=port or settings.api_port,
        workers=workers or settings.api_workers, log_config=None, access_log=False, proxy_headers=False,
        # A live subscriber's frames are small JSON: compressing each one for each socket cost more CPU
        # than the fan-out itself (E9), and a WebSocket client may not insist on it.
        ws_per_message_deflate=False,
        http=http_protocol(),  # an answer's head and body in one write (N110)
    )


@app.command("grpc")
def grpc_server() -> None:
    """Serve the gRPC services of seed 000 and the gRPC health service (HUB_GRPC_HOST:HUB_GRPC_PORT)."""
    from hub.config import get_settings
    from hub import tracing
    from hub.grpcapi.server import run
    from hub.logs import configure_logging
    from hub.preflight import require_dependencies

    configure_logging(get_settings().log_level)
    tracing.configure("grpc")
    require_dependencies(database=False)  # publishing needs only the backbone
    run()


@app.command()
def sweep(
    loop: Annotated[bool, typer.Option(help="keep sweeping every --interval seconds")] = False,
    interval: Annotated[Optional[float], typer.Option(help="seconds between sweeps (default: "
                                                           "HUB_RETENTION_INTERVAL_SECONDS)")] = None,
    metrics_port: Annotated[int, typer.Option(help="serve /metrics on this port while looping (0: no)")] = 0,
) -> None:
    """Delete event-log, job and attempt rows older than the retention window."""
    from hub.config import get_settings
    from hub.preflight import require_dependencies
    from hub.retention.runner import run_loop, sweep_now

    require_dependencies(kafka=False)
    if loop:
        run_loop(interval_seconds=interval or get_settings().retention_interval_seconds, metrics_port=metrics_port)
        return
    report = sweep_now()
    if report is None:
        typer.echo("another process is sweeping; nothing done")
        return
    typer.echo(f"swept up to {report.horizon.isoformat()}; coverage starts {report.coverage_start.isoformat()}; "
               f"deleted {report.deleted} in {report.seconds:.2f} s")


@app.command()
def send(
    event_type: Annotated[str, typer.Option("--type", help="event key (the CloudEvent `type`)")] = "transaction.posted",
    tenant: Annotated[str, typer.Option(help="tenant id (the `tenantid` extension)")] = "dev-tenant",
    source: Annotated[str, typer.Option(help="producing application; the topic is <prefix><source>")] = "ledger",
    data: Annotated[str, typer.Option(help="event data: JSON text, or @file holding JSON")] = "{}",
    event_id: Annotated[Optional[str], typer.Option("--id", help="event id (default: a fresh UUID)")] = None,
    mode: Annotated[str, typer.Option(help="content mode: binary (ce_ headers) or structured")] = "binary",
    count: Annotated[int, typer.Option(help="how many events (ids get -1, -2... when --id is given)")] = 1,
    key: Annotated[Optional[str], typer.Option(help="partition key (the record key)")] = None,
    schema_version: Annotated[Optional[str], typer.Option(help="the `schemaversion` extension")] = None,
) -> None:
    """Produce CloudEvents to the backbone, as a producing application does."""
    from hub.devtools.send import SendError, SendRequest, read_data, send as produce

    try:
        request = SendRequest(tenant=tenant, source=source, event_type=event_type, data=read_data(data),
                              ce_id=event_id, mode=mode, count=count, key=key, schema_version=schema_version)
        sent = produce(request)
    except SendError as exc:
        typer.echo(f"hub send: {exc}", err=True)
        raise typer.Exit(2) from None
    for item in sent:
        typer.echo(f"sent {event_type} id={item.ce_id} tenant={tenant} ({mode}) to {item.topic} "
                   f"partition {item.partition} offset {item.offset}")


@app.command()
def listen(
    secret: Annotated[Optional[str], typer.Option(help="the subscription's signing secret (whsec_...)")] = None,
    host: Annotated[str, typer.Option(help="bind address")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="bind port (0: any free port)")] = 9443,
    http: Annotated[bool, typer.Option("--http", help="plain HTTP instead of HTTPS (loopback only)")] = False,
    ca_dir: Annotated[Optional[str], typer.Option(help="where the local CA is kept (default .local/listen)")] = None,
    print_ca: Annotated[bool, typer.Option("--print-ca", help="make the local CA if missing, print its path, exit")] = False,
    show_body: Annotated[bool, typer.Option("--show-body", help="print each request's body too")] = False,
) -> None:
    """Receive webhooks locally, verify each signature, print each event and its verdict."""
    from hub.devtools.listen import run_listen

    run_listen(secret=secret, host=host, port=port, http=http, ca_dir=ca_dir, print_ca=print_ca,
               show_body=show_body)


@app.command()
def migrate(
    revision: Annotated[str, typer.Argument(help="target revision")] = "heads",
    create_database: Annotated[bool, typer.Option(help="create the database first when it is missing")] = False,
) -> None:
    """Upgrade the database schema (an empty or an older database)."""
    from hub import migrate as migrations
    from hub.preflight import require_dependencies

    if create_database and migrations.create_database_if_missing():
        typer.echo("database created")
    require_dependencies(kafka=False)
    migrations.upgrade(revision)
    typer.echo(f"database migrated to {revision}")


@app.command()
def token(
    tenant: Annotated[Optional[str], typer.Option(help="tenant id claim")] = "dev-tenant",
    permission: Annotated[Optional[list[str]], typer.Option(help="resource:action, repeatable")] = None,
    operator: Annotated[bool, typer.Option(help="add the operator scope")] = False,
    delegated_scope: Annotated[Optional[str], typer.Option(help="delegated party (Base64)")] = None,
    nature: Annotated[Optional[list[str]], typer.Option(help="event key or prefix.* pattern")] = None,
    ttl: Annotated[int, typer.Option(help="lifetime in seconds")] = 3600,
    publish_event_type: Annotated[Optional[list[str]], typer.Option(
        help="seed 000: an event type the token may publish (`*`: any), repeatable; adds the "
             "permission event-publisher-service:publish")] = None,
    event_broker: Annotated[Optional[list[str]], typer.Option(
        help="event broker grant: TOPIC=DATA_FLAGS or TOPIC=DATA_FLAGS/TOPIC_FLAGS, e.g. orders=PRD/RW; repeatable")] = None,
) -> None:
    """Mint an HS256 JWT that the local hub accepts (and print a console link for it on stderr)."""
    from hub.auth.tokens import mint_token
    from hub.broker.access import parse_grant_options
    from hub.console.link import console_link
    from hub.devtools.tree import DEFAULT_PERMISSIONS
    from hub.publisher.access import publish_claims

    permissions, claims = permission or list(DEFAULT_PERMISSIONS), {}
    if publish_event_type:
        permissions, claims = publish_claims(permissions, publish_event_type)
    try:
        grants = parse_grant_options(event_broker) if event_broker else None
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--event-broker") from None
    minted = mint_token(
        tenant=tenant or None, permissions=permissions, operator=operator,
        delegated_scope=delegated_scope, nature=nature, event_broker=grants, ttl_seconds=ttl, claims=claims,
    )
    typer.echo(minted)
    # On stderr, so `TOKEN=$(hub token)` still captures the token alone.
    typer.echo(f"console: {console_link(minted)}", err=True)


@app.command()
def openapi(
    output: Annotated[Optional[Path], typer.Option(help="write here instead of standard output")] = None,
) -> None:
    """Print (or write) the API's OpenAPI document, as committed in schemas/openapi.json."""
    from hub.apidocs import render_openapi
    from hub.app import create_app

    document = render_openapi(create_app())
    if output is None:
        typer.echo(document, nl=False)
    else:
        output.write_text(document, encoding="utf-8")


@app.command()
def rekey(
    tenant: Annotated[Optional[str], typer.Option(help="only this tenant's subscriptions")] = None,
) -> None:
    """Re-encrypt every stored secret under the newest HUB_ENCRYPTION_KEYS key."""
    from hub.db import session_scope
    from hub.preflight import require_dependencies
    from hub.secrets import SecretsError, validate_encryption_keys
    from hub.subscription.rekey import rekey_subscriptions

    try:
        validate_encryption_keys()
        require_dependencies(kafka=False)
        with session_scope() as session:
            count = rekey_subscriptions(session=session, tenant_id=tenant)
    except SecretsError as exc:
        typer.echo(f"streaming-hub: rekey failed, nothing changed: {exc.detail}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"re-encrypted {count} secret values")


if __name__ == "__main__":
    app()
