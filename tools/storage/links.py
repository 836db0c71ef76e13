"""How long files and links live, and links Kea signs itself (for the ``file://`` store).

Stored files expire 7 days after they were stored; links in answers after 24 hours. A link to
the download endpoint carries its expiry and an HMAC-SHA256 of the path and expiry under a
secret kept in ``$KEA_HOME/link-secret`` (created on first use, readable only by its owner).
``kea serve`` uses the secret kept in its database instead (the first server's own), so a
link one replica signed opens on every other.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from datetime import datetime, timedelta
from pathlib import Path

FILE_RETENTION = timedelta(days=7)
LINK_LIFETIME = timedelta(hours=24)


class LinkRefused(PermissionError):
    """A signed link that is tampered with or expired; the message says which."""


def is_expired(stored_at: datetime, now: datetime) -> bool:
    """A stored file is kept 7 days."""
    return now - stored_at > FILE_RETENTION


def home_secret(home: Path) -> bytes:
    """The link secret kept under ``home``, made once with mode 0600."""
    path = home / "link-secret"
    if not path.exists():
        home.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process made it first
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32))
    path.chmod(0o600)
    return bytes.fromhex(path.read_text().strip())


class LinkSigner:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 32:
            raise ValueError("a link secret has at least 32 bytes")
        self._secret = secret

    @classmethod
    def from_home(cls, home: Path) -> "LinkSigner":
        """The signer of this installation; its secret is made once, with mode 0600."""
        return cls(home_secret(home))

    def _mac(self, path: str, expires: int) -> str:
        return hmac.new(self._secret, f"{path}\n{expires}".encode(), hashlib.sha256).hexdigest()

    def sign(self, path: str, now: datetime, lifetime: timedelta = LINK_LIFETIME) -> dict[str, str]:
        """The query parameters of a link to ``path`` valid for ``lifetime`` from ``now``."""
        expires = int((now + lifetime).timestamp())
        return {"expires": str(expires), "sig": self._mac(path, expires)}

    def verify(self, path: str, expires: str | None, sig: str | None, now: datetime) -> None:
        """Raise ``LinkRefused`` unless the link to ``path`` is genuine and not expired."""
        if not expires or not sig or not expires.isdigit():
            raise LinkRefused("This link is incomplete: it needs its expires and sig parameters.")
        if not hmac.compare_digest(self._mac(path, int(expires)), sig):
            raise LinkRefused("This link is not valid: it was changed after it was made.")
        if now.timestamp() > int(expires):
            raise LinkRefused("This link has expired (links are valid for 24 hours). Ask again for a new one.")
