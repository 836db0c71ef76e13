"""The ``kea serve`` and ``kea keys`` commands (the HTTP API and who may call it)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Optional, TypeVar

import typer
from rich.table import Table

from server.terminal import err, out, shown

keys_app = typer.Typer(
    help="API keys of the HTTP API. Only a key's SHA-256 is stored; the key is shown once, when made.",
    no_args_is_help=True,
)
T = TypeVar("T")


def _with_accounts(action: Callable[[Any], Awaitable[T]]) -> T:
    """Run ``action(accounts)`` on Kea's database (migrated first)."""
    from checkpoints.cluster import ServiceError, database_url
    from checkpoints.migrations import apply_migrations
    from server.accounts import Accounts, open_pool

    async def run() -> T:
        url = await asyncio.to_thread(database_url)
        await asyncio.to_thread(apply_migrations, url)
        pool = open_pool(url, max_size=2)
        await pool.open(wait=True)
        try:
            return await action(Accounts(pool))
        finally:
            await pool.close()

    try:
        return asyncio.run(run())
    except ServiceError as exc:
        err.print(f"[red]Error:[/red] {shown(exc)}")
        raise typer.Exit(1) from exc


@keys_app.command("create")
def keys_create(
    user: Annotated[Optional[str], typer.Argument(help="The user the key belongs to (requests with it act as USER).")] = None,
    service: Annotated[
        Optional[str],
        typer.Option("--service", help="Make a key for a trusted client NAME (e.g. the Open WebUI pipe) that acts for the user it names in X-Kea-User."),
    ] = None,
) -> None:
    """Make an API key and print it once (on stdout; store it now, it cannot be shown again)."""
    from server.accounts import AccountError

    if bool(user) == bool(service):
        err.print("[red]Error:[/red] Name either a USER or a --service NAME.")
        raise typer.Exit(2)
    try:
        info, key = _with_accounts(lambda accounts: accounts.create_key(user or service or "", service=bool(service)))
    except AccountError as exc:
        err.print(f"[red]Error:[/red] {shown(exc)}")
        raise typer.Exit(2) from exc
    kind = f"service {info.user} (acts for the user in X-Kea-User)" if info.service else f"user {info.user}"
    err.print(f"Key {info.id} for {kind}. It is shown only now; requests send it as 'Authorization: Bearer KEY'.")
    out.print(key, highlight=False, soft_wrap=True)


@keys_app.command("list")
def keys_list() -> None:
    """Every key: its id, owner, kind, first characters, when made and revoked."""
    keys = _with_accounts(lambda accounts: accounts.list_keys())
    if not keys:
        out.print("No API keys: the server answers only the local user, only on this machine (loopback).")
        return
    table = Table("Id", "User", "Kind", "Starts with", "Created", "Revoked")
    for k in keys:
        table.add_row(str(k.id), k.user, "service" if k.service else "user", k.prefix + "…",
                      f"{k.created_at:%Y-%m-%d %H:%M}", f"{k.revoked_at:%Y-%m-%d %H:%M}" if k.revoked_at else "-")
    out.print(table)


@keys_app.command("revoke")
def keys_revoke(key_id: Annotated[int, typer.Argument(help="The key's id (kea keys list).")]) -> None:
    """Revoke a key: requests with it are refused from now on."""
    if _with_accounts(lambda accounts: accounts.revoke_key(key_id)):
        out.print(f"Key {key_id} is revoked.")
    else:
        err.print(f"[red]Error:[/red] There is no live key {key_id} (kea keys list shows them).")
        raise typer.Exit(1)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on; 127.0.0.1 keeps the server on this machine.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8400,
) -> None:
    """Serve the HTTP API: OpenAI-compatible chat, the run API and downloads.

    Point any OpenAI client at http://HOST:PORT/v1 with model kea-document-tables. Without any
    API key only the local user is served, only from this machine; create keys with
    'kea keys create USER'.
    """
    import uvicorn

    from server.app import create_app

    if host not in ("127.0.0.1", "localhost", "::1"):
        err.print(f"Listening on {host}: every request needs an API key (kea keys create USER).")
    err.print(f"Kea serves on http://{host}:{port}/v1 (models: GET /v1/models).")
    if host in ("127.0.0.1", "localhost", "::1"):
        err.print("Until an API key exists (kea keys create USER), requests from this machine act as the local user, "
                  "with any bearer key or none.")
    uvicorn.run(create_app(), host=host, port=port, log_level="info")
