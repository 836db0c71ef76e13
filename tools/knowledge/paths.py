"""Document paths: normalising them on the way in, and globs over them on the way out."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path


class UnsafePath(ValueError):
    """A path that would leave its collection (absolute, '..', a backslash)."""


class BadPattern(ValueError):
    """A glob or year that is not a valid pattern; the message says which and why."""


def normalise_path(path: str) -> str:
    """A stored document path: relative, '/'-separated, NFC, no '.' or '..' segments."""
    text = unicodedata.normalize("NFC", path.replace("\\", "/"))
    if text.startswith("/") or re.match(r"^[A-Za-z]:", text):
        raise UnsafePath(f"absolute path not allowed: {path!r}")
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        raise UnsafePath(f"path leaves its collection: {path!r}")
    return "/".join(parts)


def glob_to_regex(glob: str) -> str:
    """Translate a path glob into an anchored regular expression (POSIX/PostgreSQL ARE syntax).

    ``*`` matches within one folder, ``**`` across folders (``a/**`` is everything under
    ``a``; ``**/x.pdf`` is ``x.pdf`` in any folder), ``?`` one character, ``[...]`` a class.
    """
    glob = _simplified(glob)
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        if glob.startswith("**/", i):
            out.append("(.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = glob.find("]", i + 2)
            if end == -1:
                out.append(re.escape(c))
                i += 1
            else:
                body = glob[i + 1 : end]
                negate = body.startswith("!")
                body = body[1:] if negate else body
                body = body.replace("\\", "\\\\")
                out.append(("[^" if negate else "[") + body + "]")
                i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    pattern = "^" + "".join(out) + "$"
    try:
        re.compile(pattern)
    except re.error as exc:
        raise BadPattern(f"{glob!r} is not a valid path pattern ({exc.msg}).") from exc
    return pattern


# A glob is matched by PostgreSQL's regular expressions, whose cost grows with the number of
# wildcards: past this many a pattern is refused (no path needs more), so none can keep the
# database busy for minutes.
MAX_WILDCARDS = 20
_WILDCARD = re.compile(r"\*+|\?|\[")


def _simplified(glob: str) -> str:
    """The same pattern with its redundant wildcards merged (``**/**/`` is ``**/``, ``***`` is
    ``**``); BadPattern when it still has more than ``MAX_WILDCARDS``."""
    glob = re.sub(r"\*{3,}", "**", glob)
    glob = re.sub(r"(?:\*\*/){2,}", "**/", glob)
    wildcards = len(_WILDCARD.findall(glob))
    if wildcards > MAX_WILDCARDS:
        shown = glob if len(glob) <= 60 else glob[:59] + "…"
        raise BadPattern(f"The path pattern {shown!r} has {wildcards:,} wildcards; Kea takes at most {MAX_WILDCARDS}.")
    return glob


def year_regex(year: str) -> str:
    """A path mentions a year when it stands as its own number (2025 in invoices/2025/a.pdf)."""
    if not re.fullmatch(r"\d{4}", year):
        raise BadPattern(f"{year!r} is not a year (four digits, e.g. 2025).")
    return f"(^|[^0-9]){year}([^0-9]|$)"


def matches_glob(path: str, glob: str) -> bool:
    return re.match(glob_to_regex(glob), path) is not None


def glob_prefix(glob: str) -> str:
    """The literal start of a glob, up to its first wildcard ('invoices/2025/' of 'invoices/2025/**')."""
    cut = min((i for i, c in enumerate(glob) if c in "*?["), default=len(glob))
    return glob[:cut]


def like_prefix(prefix: str) -> str:
    """A LIKE pattern matching strings that start with ``prefix`` (wildcards escaped)."""
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def path_like_tokens(text: str) -> list[str]:
    """Words of ``text`` that look like a path, a glob or a file name ("a/b", "x.pdf", "*.md")."""
    tokens = []
    for token in re.findall(r"[^\s\"'`()\[\]{}<>,;!?\u201c\u201d]+", text):
        token = token.rstrip(".:")
        looks_like = "/" in token or "*" in token or re.search(r"\.[A-Za-z0-9]{2,5}$", token)
        if looks_like and any(c.isalpha() for c in token):
            try:
                tokens.append(token if "*" in token else normalise_path(token))
            except ValueError:
                continue
    return tokens


def file_sha256(path: Path) -> str:
    """A file's SHA-256, read in blocks (an ingested file's identity, a model file's check)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
