"""Who is calling: ``Authorization: Bearer KEY``, or the keyless local user.

The keyless local user ('local', who reads every collection) is served only while no key
exists and only from a loopback address (a request a proxy forwarded is not local, whatever
address it comes from), with or without a bearer (clients that always send a placeholder key
work, as with other local OpenAI-compatible servers); once a key exists every request needs one. A service
key (a trusted client such as the Open WebUI pipe) acts for the user named in ``X-Kea-User`` —
never for the local user, who has no key either.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from fastapi import HTTPException, Request

from core.selection import LOCAL_USER
from server.accounts import AccountError, check_user

USER_HEADER = "x-kea-user"


@dataclass(frozen=True)
class Caller:
    user: str
    key_id: int | None = None  # None: the keyless local user
    service: str | None = None  # the service acting for ``user``


def is_loopback(host: str | None) -> bool:
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _refuse(status: int, message: str) -> HTTPException:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return HTTPException(status, message, headers=headers)


async def caller(request: Request) -> Caller:
    """The caller of this request (a FastAPI dependency); 401/403 with a sentence otherwise."""
    return await _caller(request, user_needed=True)


async def key_holder(request: Request) -> Caller:
    """Like ``caller``, but a service key need not name a user: for what no user's access decides
    (the list of models, which a client such as the Open WebUI pipe reads before anyone chats)."""
    return await _caller(request, user_needed=False)


def _local(request: Request) -> bool:
    """Whether the request comes from this machine itself (not through a proxy)."""
    proxied = any(h in request.headers for h in ("forwarded", "x-forwarded-for", "x-real-ip"))
    return not proxied and is_loopback(request.client.host if request.client else None)


async def _caller(request: Request, *, user_needed: bool) -> Caller:
    accounts = request.app.state.kea.accounts
    header = request.headers.get("authorization", "")
    named = request.headers.get(USER_HEADER)
    if header:
        scheme, _, key = header.partition(" ")
        found = await accounts.find_key(key.strip()) if scheme.lower() == "bearer" and key.strip() else None
        if found is None and _local(request) and not await accounts.any_key():
            # a keyless server on loopback takes any bearer, as local OpenAI-compatible servers do:
            # clients that always send a key (a placeholder "sk-none") reach the local user
            return Caller(LOCAL_USER)
        if scheme.lower() != "bearer" or not key.strip():
            raise _refuse(401, "Send the API key as 'Authorization: Bearer KEY'.")
        if found is None:
            raise _refuse(401, "This API key is not valid: it is unknown or was revoked.")
        if found.service:
            if not named and not user_needed:
                return Caller(found.user, found.id, found.user)
            if not named:
                raise _refuse(400, f"The service key of {found.user} acts for a user: name them in the X-Kea-User header.")
            if named == LOCAL_USER:  # the keyless user of this machine reads every collection
                raise _refuse(403, f"A service cannot act for {LOCAL_USER!r}, this machine's own user; name a user "
                                   "who was granted collections.")
            try:
                return Caller(check_user(named), found.id, found.user)
            except AccountError as exc:
                raise _refuse(400, str(exc)) from exc
        if found.user == LOCAL_USER:  # a key made for it before such keys were refused
            raise _refuse(403, f"This key is for {LOCAL_USER!r}, this machine's own user, who needs no key and is "
                               "served only on this machine; make a key for a named user.")
        if named and named != found.user:
            raise _refuse(403, "This key belongs to another user; only a service key may act for the user named in X-Kea-User.")
        return Caller(found.user, found.id)
    if await accounts.any_key():
        raise _refuse(401, "This server needs an API key: send 'Authorization: Bearer KEY' (an admin makes one with: kea keys create USER).")
    if not _local(request):
        raise _refuse(
            401, "Without an API key Kea answers only on this machine (loopback). Create a key with: kea keys create USER."
        )
    return Caller(LOCAL_USER)
