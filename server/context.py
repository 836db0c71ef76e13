"""What the HTTP routes share: the app's state, the thread header, and the error shape."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from server.accounts import Accounts
from server.profiles import Profiles
from server.runner import Runner
from tools.services import Services

THREAD_HEADER = "X-Kea-Thread"


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Kea:
    """What the routes share (``app.state.kea``)."""

    services: Services
    accounts: Accounts
    runner: Runner
    profiles: Profiles
    clock: Callable[[], datetime]
    public_url: str | None

    def base_url(self, request: Request) -> str:
        """Where links point: ``KEA_PUBLIC_URL`` when set, else the address the caller used."""
        return self.public_url or str(request.base_url)


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """An error as the OpenAI clients read it, ``{"error": {"message", "type", "code"}}``."""
    kind = {401: "authentication_error", 403: "permission_error", 404: "not_found_error", 409: "conflict_error",
            410: "expired_error"}.get(status, "invalid_request_error")
    body: dict[str, Any] = {"error": {"message": message, "type": kind, "code": status}}
    return JSONResponse(body, status_code=status, headers=headers)
