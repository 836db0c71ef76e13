"""``kea serve``: the FastAPI app every chat client talks to.

- ``server/chat.py``: the OpenAI-compatible API (``/v1/models``, ``/v1/chat/completions``);
- ``server/run_api.py``: the run API with Server-Sent Events for rich clients (``/v1/runs``);
- ``server/files.py``: downloads (``/files/{extraction_id}/{name}``) that check access;
- ``server/threads_api.py``: deleting a conversation (``DELETE /v1/threads/{thread}``);
- ``server/auth.py``: who is calling; ``server/accounts.py``: keys, threads, turns in PostgreSQL.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime

from fastapi import FastAPI, Request
from fastapi.exceptions import HTTPException, RequestValidationError
from fastapi.responses import JSONResponse

from checkpoints.cluster import kea_home
from checkpoints.runs import RunRecords
from checkpoints.saver import KeaSaver
from graph.extraction import build_extraction_graph
from graph.universal import build_universal_agent
from server import chat, files, run_api, threads_api
from server.accounts import Accounts, open_pool
from server.context import Kea, error_response, utc_now
from server.profiles import Profiles
from server.runner import Runner
from tools.services import Services, services, settle_heap
from tools.storage.links import LinkSigner, home_secret


def create_app(
    svc: Services | None = None, *, clock: Callable[[], datetime] = utc_now, public_url: str | None = None,
    profiles: Profiles | None = None,
) -> FastAPI:
    """The app; ``svc`` defaults to the process's services, ``clock`` to the wall clock (tests move it),
    ``profiles`` to the shipped ones and those in ``$KEA_HOME/profiles``."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        chosen = svc or await asyncio.to_thread(services)  # starts the local cluster, applies migrations
        pool = open_pool(chosen.database_url, max_size=int(os.environ.get("KEA_SERVER_DB_CONNECTIONS", "20")))
        await pool.open(wait=True)
        try:
            saver = KeaSaver(pool)  # type: ignore[arg-type]  # a lost database stops a run with a sentence
            await saver.setup()
            accounts = Accounts(pool)
            home = kea_home()
            known = profiles or Profiles.load(home)
            graphs = {
                "document-tables": build_extraction_graph(saver, services=chosen),
                "universal": build_universal_agent(saver, services=chosen),
            }
            # the links this server signs open on every replica: one secret per database
            secret = await accounts.shared_secret("download-links", (await asyncio.to_thread(home_secret, home)).hex())
            runner = Runner(
                graphs, accounts, chosen.objects, LinkSigner(bytes.fromhex(secret)), clock, known.agent_of,
                RunRecords(chosen.database_url),
            )
            app.state.kea = Kea(
                chosen, accounts, runner, known, clock, public_url or os.environ.get("KEA_PUBLIC_URL") or None
            )
            settle_heap()  # started: what the server runs with stays out of the collector's full passes
            # runs whose server died or stopped go on here: those found now, and any found later
            # (another replica dying) within a few seconds
            await runner.pick_up(known.profile)
            watcher = asyncio.create_task(runner.watch(known.profile), name="kea-takeover-watch")
            try:
                yield
            finally:
                watcher.cancel()
                await asyncio.gather(watcher, return_exceptions=True)
                await runner.close()
        finally:
            await pool.close()

    app = FastAPI(title="Kea", description="One chat message, one exact table.", lifespan=lifespan)
    app.include_router(chat.router)
    app.include_router(run_api.router)
    app.include_router(files.router)
    app.include_router(threads_api.router)

    @app.exception_handler(HTTPException)
    async def _error(request: Request, exc: HTTPException) -> JSONResponse:
        return error_response(exc.status_code, str(exc.detail), exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", []) if p != "body")
        return error_response(422, f"The request body is not valid: {where or 'body'}: {first.get('msg', 'invalid')}.")

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
