"""The Universal Agent's document tools: list, read, search and rank, under the profile's scope.

Each answers with text for the model, cut to the result budget; every read goes through the
knowledge base's scope (collections ∩ the user's access ∩ the profile's glob), so nothing
outside it is listed, searched or read, whatever the model asks for.
"""

from __future__ import annotations

from core.reading import folder_list
from core.selection import DocumentSelection, Scope, SelectionEntry
from tools.agent.schemas import ListDocuments, RankDocuments, ReadDocument, SearchDocuments, SelectDocuments
from tools.knowledge.errors import DocumentNotFound
from tools.knowledge.ranking import rank
from tools.services import Services


def cut(text: str, budget_chars: int) -> str:
    """``text`` within the result budget, saying so when it was cut."""
    if len(text) <= budget_chars:
        return text
    note = f"\n… (cut: {len(text) - budget_chars:,} more characters not shown; read fewer pages or search)"
    return text[: max(0, budget_chars - len(note))].rstrip() + note


def list_documents(svc: Services, scope: Scope, args: ListDocuments) -> str:
    kb = svc.kb
    folder = (args.folder or "").strip().strip("/")
    selection = DocumentSelection(entries=[SelectionEntry(path_globs=[f"{folder}/**"])]) if folder else None
    found = kb.resolve(scope, selection).documents
    if not found:
        where = f"in folder {folder}" if folder else "in scope"
        folders = folder_list(kb.folder_summary(scope)) or "none"
        return f"No document {where}. The largest folders in scope: {folders}."
    qualify = len({d.collection for d in found}) > 1
    lines = [f"{len(found)} documents{f' in {folder}' if folder else ' in scope'}; the largest folders: "
             f"{folder_list(kb.folder_summary(scope, selection=selection))}."]
    for d in found[: args.limit]:
        name = f"{d.collection}:{d.path}" if qualify else d.path
        lines.append(f"- {name} ({d.page_count} page{'s' if d.page_count != 1 else ''})")
    if len(found) > args.limit:
        lines.append(f"… and {len(found) - args.limit} more (name a folder to see them).")
    return "\n".join(lines)


def read_document(svc: Services, scope: Scope, args: ReadDocument) -> str:
    kb = svc.kb
    path = args.path.strip()
    collection, _, rest = path.partition(":")
    matches = kb.find_by_path_suffix(scope, rest if rest else path)
    if rest:
        matches = [d for d in matches if d.collection == collection] or kb.find_by_path_suffix(scope, path)
    if not matches:
        return f"No document in scope is at {path}. List the documents or search to find its path."
    if len(matches) > 1:
        names = ", ".join(f"{d.collection}:{d.path}" for d in matches[:10])
        return f"{path} names {len(matches)} documents: {names}. Name one of them in full."
    try:
        document = kb.read_document(scope, matches[0].id, args.first_page, args.last_page)
    except DocumentNotFound as exc:
        return str(exc)
    first = args.first_page or 1
    pages = [f"=== Page {first + i} ===\n{text}" for i, text in enumerate(document.pages)]
    head = f"Document: {document.collection}:{document.path} ({matches[0].page_count} pages)"
    return "\n".join([head, *pages]) if pages else f"{head}: no text on those pages."


def search_documents(svc: Services, scope: Scope, args: SearchDocuments) -> str:
    return searched(svc, scope, args)[0]


def searched(svc: Services, scope: Scope, args: SearchDocuments) -> tuple[str, bool]:
    """The search's text for the model, and whether it stopped at its result limit."""
    kb = svc.kb
    found = kb.search(scope, args.text, regex=args.regex, path_glob=args.path_glob, limit=args.limit)
    if not found.hits:
        return found.message or f"No page in scope contains {args.text!r}.", False
    lines = [f"{len(found.hits)} pages match {args.text!r}" + (f" ({found.message})" if found.message else "") + ":"]
    lines += [f"- {h.collection}:{h.path} p.{h.page}: {h.line}" for h in found.hits]
    return "\n".join(lines), bool(found.limit_hit)


def select_documents(svc: Services, scope: Scope, args: SelectDocuments) -> tuple[str, int]:
    """The selection resolved under the scope: the text for the model and how many documents it holds."""
    resolution = svc.kb.resolve(scope, args.selection())
    if not resolution.complete:
        return f"The selection could not be resolved: {resolution.reason} Select again, by path if you can.", 0
    found = resolution.documents
    if not found:
        return "The selection holds no document in scope; nothing is selected. Select again.", 0
    names = ", ".join(f"{d.collection}:{d.path}" for d in found[:10]) + (f" … and {len(found) - 10} more" if len(found) > 10 else "")
    return f"Selected {len(found)} document{'s' if len(found) != 1 else ''}: {names}. The table is extracted from them.", len(found)


def rank_documents(svc: Services, scope: Scope, args: RankDocuments) -> str:
    """The documents in scope in order of how well they fit the described kind (by meaning, else by
    its words); the best ``limit`` are listed, and the list says how it was ordered."""
    ids = [d.id for d in svc.kb.resolve(scope).documents]
    ranking = rank(svc, args.query, ids, scope=scope)
    if not ranking.ranked:
        return f"Nothing in scope fits {args.query!r} by meaning or by its words; try other words or list the documents."
    paths = {d.id: f"{d.collection}:{d.path}" for d in svc.kb.resolve(scope).documents}
    how = "by meaning" if ranking.method == "meaning" else "by the words they contain"
    best = ranking.document_ids[: min(args.limit, ranking.ranked)]
    lines = [f"The {len(best)} of {len(ids)} documents in scope that fit {args.query!r} best ({how}), best first:"]
    lines += [f"{n}. {paths[d]}" for n, d in enumerate(best, 1)]
    if ranking.note:
        lines.append(ranking.note)
    return "\n".join(lines)