"""Downloads: ``GET /files/{extraction_id}/{name}`` (``table.csv``, ``table.xlsx``, ``review.html``
or ``summary.json``; the review page opens in the browser, under a policy that lets it fetch nothing).

Access is checked on every path to a file:
- with a signed link (``?expires=...&sig=...``, valid 24 hours, made by Kea for the answer):
  the signature and expiry, else 403;
- otherwise with the caller's key: the caller must own the thread that made the extraction;
  another user gets the same 404 as for a file that does not exist.
A file stored more than 7 days ago answers 410: it expired. A table whose ``summary.json``
(published last) is missing answers 409: its run stopped while storing it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import StreamingResponse

from server.auth import caller
from server.context import Kea
from tools.storage.links import LinkRefused, is_expired
from tools.storage.objects import ObjectNotFound
from tools.storage.review import CSP, HTML_TYPE
from tools.storage.rows import output_key, summary_key
from tools.storage.xlsx import XLSX_TYPE

router = APIRouter()
FILES = {
    "table.csv": "text/csv; charset=utf-8",
    "table.xlsx": XLSX_TYPE,
    "review.html": HTML_TYPE,
    "summary.json": "application/json",
}
CHUNK = 256 * 1024


def _not_found() -> HTTPException:
    return HTTPException(404, "There is no such file.")


def _chunks(handle: Any) -> Iterator[bytes]:
    with handle:
        while block := handle.read(CHUNK):
            yield block


@router.get("/files/{extraction_id}/{name}", response_model=None)
async def download(extraction_id: str, name: str, request: Request) -> StreamingResponse:
    kea: Kea = request.app.state.kea
    if name not in FILES:
        raise _not_found()
    try:
        key = output_key(extraction_id, name)
    except ValueError as exc:
        raise _not_found() from exc
    query = request.query_params
    if "sig" in query or "expires" in query:
        try:
            kea.runner.signer.verify(f"{extraction_id}/{name}", query.get("expires"), query.get("sig"), kea.clock())
        except LinkRefused as exc:
            raise HTTPException(403, str(exc)) from exc
    else:
        who = await caller(request)
        if await kea.accounts.extraction_owner(extraction_id) != who.user:
            raise _not_found()
    objects = kea.services.objects
    try:
        stored = await asyncio.to_thread(objects.stored_at, key)
    except ObjectNotFound as exc:
        raise _not_found() from exc
    if name != "summary.json" and not await asyncio.to_thread(objects.exists, summary_key(extraction_id)):
        # the summary is published last: without it the run stopped while storing the table
        raise HTTPException(409, "This table is not complete: its run stopped while storing it. Resume the run "
                                 "(kea resume THREAD) to finish it, or ask again.")
    if is_expired(stored, kea.clock()):
        raise HTTPException(410, "This file expired: tables are kept for 7 days after they are made. Ask again for a new one.")
    try:
        handle = await asyncio.to_thread(objects.open, key)
    except ObjectNotFound as exc:
        raise _not_found() from exc
    return StreamingResponse(
        _chunks(handle),
        media_type=FILES[name],
        headers=_headers(name),
    )


def _headers(name: str) -> dict[str, str]:
    headers = {"Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff"}
    if name == "review.html":  # shown in the browser, allowed to load nothing at all
        return {**headers, "Content-Disposition": f'inline; filename="{name}"', "Content-Security-Policy": CSP}
    return {**headers, "Content-Disposition": f'attachment; filename="{name}"'}
