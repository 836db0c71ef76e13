"""Filling a collection from folders of files: idempotent by content hash, never fatal per file."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tools.knowledge.base import KnowledgeBase
from tools.knowledge.errors import KnowledgeError
from tools.knowledge.paths import UnsafePath, file_sha256, normalise_path
from tools.knowledge.vectors import VectorIndex, index_for
from tools.parsing import SUPPORTED_SUFFIXES, parse_file
from tools.parsing.base import UnreadableFile

log = logging.getLogger(__name__)


@dataclass
class IngestReport:
    collection: str
    indexed: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    pruned: list[str] = field(default_factory=list)
    # (path, note) for what a file indexed or replaced now could be read of only in part
    notes: list[tuple[str, str]] = field(default_factory=list)
    # ranking by meaning: the model, how many documents were embedded now, and why not if it failed
    embedding_model: str = ""
    embedded: int = 0
    embedding_error: str | None = None

    @property
    def exit_code(self) -> int:
        """0 when at least one file was indexed or all were unchanged; 2 when none could be read."""
        return 0 if (self.indexed or self.replaced or self.unchanged) else 2


@dataclass(frozen=True)
class SourceFile:
    path: Path  # on disk
    stored_path: str  # relative to the root it was found under


ProgressCallback = Callable[[str, str], None]  # (stored path, outcome)


def discover(roots: list[Path]) -> tuple[list[SourceFile], list[tuple[str, str]]]:
    """Every file under ``roots`` with its stored path; problems (path, reason) listed, not raised."""
    found: list[SourceFile] = []
    problems: list[tuple[str, str]] = []
    for root in roots:
        if not root.exists():
            problems.append((str(root), "does not exist"))
            continue
        if root.is_file():
            found.append(SourceFile(root, normalise_path(root.name)))
            continue
        base = root.resolve()
        for file, problem in _walk(base):
            relative = file.relative_to(base).as_posix()
            if problem is None and file.is_symlink() and not _inside(file.resolve(), base):
                problem = "a link that points outside the folder; not followed"
            if problem is None and not file.is_file():
                problem = "not a regular file"
            if problem:
                problems.append((relative, problem))
                continue
            try:
                found.append(SourceFile(file, normalise_path(relative)))
            except UnsafePath as exc:
                problems.append((relative, str(exc)))
    return found, problems


def _walk(base: Path) -> Iterator[tuple[Path, str | None]]:
    """Every entry under ``base`` with the reason it is not read (None when it is)."""
    for folder, dirs, files in os.walk(base, followlinks=False):
        here = Path(folder)
        kept = []
        for name in sorted(dirs):
            if name.startswith("."):
                yield here / name, "a hidden folder; not read"
            elif (here / name).is_symlink():
                yield here / name, "a link to a folder; not followed"
            else:
                kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            yield here / name, ("a hidden file; not read" if name.startswith(".") else None)


def _inside(path: Path, base: Path) -> bool:
    try:
        path.relative_to(base)
        return True
    except ValueError:
        return False


def ingest(
    kb: KnowledgeBase,
    roots: list[Path],
    collection: str,
    *,
    prune: bool = False,
    on_file: ProgressCallback | None = None,
    on_start: Callable[[int], None] | None = None,
    vectors: VectorIndex | None = None,
    embed: bool = True,
    on_embedded: Callable[[str], None] | None = None,
) -> IngestReport:
    """Index every supported file under ``roots`` into ``collection``.

    A file whose content hash is stored already is left alone; a changed file replaces its old
    version; a file that cannot be read is skipped with its reason and the run goes on. With
    ``prune``, documents of the collection not found under ``roots`` are deleted.

    Then the collection's chunk vectors are brought in step (``vectors``, default the process's
    index of ``kb``): new and changed documents are embedded, a deleted one's chunks go, and a
    collection embedded with another model than the configured one is embedded again. A
    failure there leaves the documents stored and searchable by keyword; the report says why.
    """
    report = IngestReport(collection)
    files, problems = discover(roots)
    missing = [str(r) for r in roots if not r.exists()]
    if prune and missing:
        raise KnowledgeError(
            f"Not pruning: {', '.join(missing)} does not exist, and pruning would delete every document "
            "of the collection found there. Nothing was changed."
        )
    collection_id = kb.ensure_collection(collection)
    report.skipped += problems
    stored = kb.stored_hashes(collection_id)
    if on_start:
        on_start(len(files))
    seen: set[str] = set()
    for source in files:
        outcome = _ingest_one(kb, collection_id, source, stored, seen, report)
        if on_file:
            on_file(source.stored_path, outcome)
    index = vectors or index_for(kb)
    if prune:
        gone = sorted(set(stored) - seen)
        if gone and embed:
            try:
                index.forget(collection_id, gone)
            except Exception:  # noqa: BLE001 - stale chunks are never returned: ranking checks every id
                log.warning("could not delete the chunks of %d pruned documents", len(gone), exc_info=True)
        kb.delete_documents(collection_id, gone)
        report.pruned = gone
    if embed:
        _embed(index, collection_id, report, on_embedded)
    if not (report.indexed or report.replaced or report.unchanged):
        kb.drop_if_unused(collection_id)
    return report


def _embed(index: VectorIndex, collection_id: int, report: IngestReport,
           on_embedded: Callable[[str], None] | None) -> None:
    try:
        synced = index.sync(collection_id, on_document=on_embedded)
    except Exception as exc:  # noqa: BLE001 - the documents are stored; only ranking by meaning waits
        log.warning("embedding collection %s failed", report.collection, exc_info=True)
        report.embedding_error = (
            f"The documents are stored, but their vectors for ranking by meaning could not be made "
            f"({type(exc).__name__}: {str(exc)[:200]}); they are ordered by keywords until the next ingest."
        )
        return
    report.embedding_model, report.embedded = synced.model, synced.documents


def _ingest_one(
    kb: KnowledgeBase, collection_id: int, source: SourceFile, stored: dict[str, str], seen: set[str], report: IngestReport
) -> str:
    path = source.stored_path
    if path in seen:
        report.skipped.append((path, "the same path was given twice; the first one is kept"))
        return "skipped"
    seen.add(path)
    if source.path.suffix.lower() not in SUPPORTED_SUFFIXES:
        report.skipped.append((path, f"unsupported file type {source.path.suffix or '(none)'}"))
        return "skipped"
    try:
        digest = file_sha256(source.path)
        if stored.get(path) == digest:
            report.unchanged.append(path)
            return "unchanged"
        parsed = parse_file(source.path)
        kb.store_document(collection_id, path, source.path.stat().st_size, digest, parsed)
    except UnreadableFile as exc:
        report.skipped.append((path, str(exc)))
        return "skipped"
    except OSError as exc:
        report.skipped.append((path, f"cannot be read: {exc.strerror or exc}"))
        return "skipped"
    (report.replaced if path in stored else report.indexed).append(path)
    report.notes += [(path, note) for note in parsed.notes]
    return "replaced" if path in stored else "indexed"
