"""Deleting a conversation over HTTP: ``DELETE /v1/threads/{thread}``.

The same as ``kea forget THREAD`` for the calling user (``tools/workspace/forget.py``): the files
of its extractions, a selection waiting for a yes, its SQL workspace, its chat record and its
checkpoints go; the answer is the object ``kea forget --json`` prints,
``{"thread", "forgotten": {"extractions", "extraction_files", "selections", "tables", "files",
"queries", "checkpoints"}}``. A thread of another user, or one Kea holds nothing of, answers
404 and nothing is removed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request

from server.accounts import AccountError, check_thread
from server.auth import Caller, caller
from server.context import Kea
from tools.workspace.catalog import NotYours

log = logging.getLogger(__name__)
router = APIRouter()


def _forget(kea: Kea, thread: str, user: str, loop: asyncio.AbstractEventLoop) -> Any:
    from server.runner import NotRunning
    from tools.workspace.workspace import Workspaces

    def stop_run(name: str) -> None:  # a run still in flight on the thread is cancelled first
        try:
            asyncio.run_coroutine_threadsafe(kea.runner.cancel(name, user), loop).result(timeout=120)
        except NotRunning:
            pass

    svc = kea.services
    workspaces = Workspaces(svc.database_url, svc.objects, svc.kb)
    try:
        return workspaces.forget(thread, user, stop_run=stop_run)
    finally:
        workspaces.close()


@router.delete("/v1/threads/{thread}")
async def forget(thread: str, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    kea: Kea = request.app.state.kea
    missing = HTTPException(404, f"There is no thread {thread}.")
    try:
        check_thread(thread)
    except AccountError as exc:
        raise missing from exc
    try:
        gone = await asyncio.to_thread(_forget, kea, thread, who.user, asyncio.get_running_loop())
    except NotYours as exc:
        raise missing from exc
    except Exception as exc:
        log.exception("Thread %s could not be forgotten", thread)
        raise HTTPException(500, "The conversation could not be forgotten completely (the server log has the "
                                 "details); delete it again to remove the rest.") from exc
    if not gone.anything:
        raise missing
    return gone.contract(thread)
