"""The access clause and the other SQL clauses every read of the knowledge base is built from.

Every read goes through ``Scope``: the profile's collections, the asking user's access and the
profile's path glob are part of the SQL of every query (``_scope_where``), so a document outside
them is never listed, counted, searched or read. Every value reaches SQL as a bound parameter.
"""

from __future__ import annotations

from typing import Any

from psycopg import sql

from core.selection import LOCAL_USER, DocumentSelection, Scope, SelectionEntry
from tools.knowledge.paths import glob_prefix, glob_to_regex, like_prefix

_YEAR_IN_PATH = r"(?:^|[^0-9])((?:19|20)[0-9]{2})(?![0-9])"


def _access_clause(user: str) -> tuple[sql.Composable, list[Any]]:
    if user == LOCAL_USER:
        return sql.SQL("TRUE"), []
    return (
        sql.SQL(
            "EXISTS (SELECT 1 FROM collection_readers r WHERE r.collection_id = c.id AND r.user_id IN (%s, '*'))"
        ),
        [user],
    )


def _scope_where(scope: Scope) -> tuple[sql.Composable, list[Any]]:
    """The scope as SQL over ``documents d JOIN collections c``: access, collections, profile glob."""
    clause, params = _access_clause(scope.user)
    parts, values = [clause], list(params)
    if scope.collections:
        parts.append(sql.SQL("c.name = ANY(%s)"))
        values.append(list(scope.collections))
    if scope.path_glob:
        clause, params = _glob_clause(scope.path_glob)
        parts.append(clause)
        values += params
    return sql.SQL(" AND ").join(parts), values


def _glob_clause(glob: str) -> tuple[sql.Composable, list[Any]]:
    """A glob as SQL; its literal prefix as a LIKE the path index can serve, then the exact regex."""
    prefix = glob_prefix(glob)
    if not prefix:
        return sql.SQL("d.path ~ %s"), [glob_to_regex(glob)]
    return sql.SQL("(d.path LIKE %s AND d.path ~ %s)"), [like_prefix(prefix), glob_to_regex(glob)]


def _entry_clause(entry: SelectionEntry) -> tuple[sql.Composable, list[Any]]:
    parts: list[sql.Composable] = []
    values: list[Any] = []
    if entry.path_globs:
        globs = [_glob_clause(g) for g in entry.path_globs]
        parts.append(sql.SQL("(") + sql.SQL(" OR ").join(c for c, _ in globs) + sql.SQL(")"))
        values += [v for _, params in globs for v in params]
    if entry.path_regex:
        parts.append(sql.SQL("d.path ~ %s"))
        values.append(entry.path_regex)
    if entry.content:
        match = "p.text ~* %s" if entry.content.regex else "strpos(lower(p.text), lower(%s)) > 0"
        parts.append(sql.SQL("EXISTS (SELECT 1 FROM document_pages p WHERE p.document_id = d.id AND {})").format(sql.SQL(match)))
        values.append(entry.content.text)
    if entry.ids is not None:
        parts.append(sql.SQL("d.id = ANY(%s)"))
        values.append(list(entry.ids))
    if not parts:
        return sql.SQL("TRUE"), []
    return sql.SQL("(") + sql.SQL(" AND ").join(parts) + sql.SQL(")"), values


def _selection_clause(selection: DocumentSelection) -> tuple[sql.Composable, list[Any]]:
    entries = selection.entries
    if not entries:
        return sql.SQL("TRUE"), []
    clauses, values = [], []
    for entry in entries:
        clause, params = _entry_clause(entry)
        clauses.append(clause)
        values += params
    return sql.SQL("(") + sql.SQL(" OR ").join(clauses) + sql.SQL(")"), values
