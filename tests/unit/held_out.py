"""The documents of the held-out sets (``evals/unseen/<set>/documents``) as an engine reads
them, and the scope hint a set of them gives: what the tests over other authors' documents share."""

from __future__ import annotations

from pathlib import Path

from core.reading import DocumentText, FolderCount, ScopeHint
from tools.knowledge.vocabulary import document_vocabulary
from tools.parsing import parse_file

UNSEEN = Path(__file__).resolve().parents[2] / "evals" / "unseen"


def document(path: Path, name: str | None = None) -> DocumentText:
    """The document at ``path``, stored under ``name`` (its file name when none is given)."""
    parsed = parse_file(path)
    return DocumentText(id=1, collection="unseen", path=name or path.name, title=parsed.title, media_type=parsed.media_type,
                        pages=parsed.pages, tables=parsed.tables)


def scope(paths: list[Path], folders: list[str] | None = None) -> ScopeHint:
    """The scope hint of these documents: their headers and labels, and the folders given."""
    parsed = [parse_file(p) for p in paths]
    return ScopeHint(documents=len(paths), vocabulary=[t for d in parsed for t in document_vocabulary(d)],
                     table_headers=[t.header for d in parsed for t in d.tables],
                     folders=[FolderCount(folder=f, documents=1) for f in folders or []])


def folders_of(paths: list[str]) -> list[str]:
    """Every folder the relative ``paths`` stand in, outer ones too."""
    return sorted({"/".join(p.split("/")[:k]) for p in paths for k in range(1, p.count("/") + 1)})
