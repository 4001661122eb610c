"""BM25 over FTS5 (``ApswLexical``): ``LexicalQuery`` to a MATCH expression, ``SearchFilters`` to
SQL.

The MATCH expression is ``req1 AND ... AND (req1 OR ... OR opt1 OR ...) NOT (excl OR ...)``:
required clauses must all be present, at least one positive clause must be (trivially true
when there are required ones), and FTS5's ``bm25()`` sums over every phrase of the expression,
so a document matching more optional terms ranks higher. Every phrase is a double-quoted
string with quotes doubled, so no user input can be read as FTS5 syntax.

Filters are applied to ``documents`` after the MATCH has run exactly once in a MATERIALIZED
common table expression. Written as ``rowid IN (SELECT ...)`` next to the MATCH instead,
SQLite pushes the constraint into the FTS5 virtual table, which then re-runs the full-text
query once per candidate row (seconds instead of milliseconds on a large index).

A typed metadata filter is the exception: it is checked inside the full-text scan, next to the
MATCH, as correlated ``EXISTS`` probes into the small ``metadata_values`` table
(``metadata_values.values_sql``), which SQLite cannot push into FTS5. Each match costs a
primary-key probe, and only the matches that pass are scored by ``bm25()`` (the dominant cost
of a search) and sorted; the rest of the search is the unfiltered one.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, NamedTuple

from gno_adapters.sqlite.connection import fold
from gno_adapters.sqlite.migrations import FTS_TOKENIZER
from gno_adapters.sqlite.rows import DOC_COLUMNS, Rows, to_document
from gno_core.read_values import (
    Clause,
    LexicalHit,
    LexicalQuery,
    Phrase,
    SearchFilters,
    Term,
    exclusion_clauses,
)
from gno_core.text.cjk import SEGMENTER_ID, query_units
from gno_core.text.words import words_of

if TYPE_CHECKING:
    from collections.abc import Sequence

BM25_WEIGHTS = (1.5, 4.0, 1.0)  # path, title, body
#: The window of best matches the fast path joins to ``documents``: this many times the limit,
#: at least ``WINDOW_MIN``.
WINDOW_FACTOR = 4
WINDOW_MIN = 40


def phrase_sql(clause: Clause) -> str | None:
    """One clause as a quoted FTS5 phrase (``"a b"``, ``"pre"*``), or None if it has no words."""
    words = clause.words if isinstance(clause, Phrase) else tuple(words_of(clause.text))
    if not words:
        return None
    tokens, cjk_prefix = query_units(" ".join(words))
    text = " ".join(tokens).strip()
    if not text:
        return None
    prefix = cjk_prefix or (isinstance(clause, Term) and clause.prefix)
    return '"' + text.replace('"', '""') + '"' + ("*" if prefix else "")


def match_expression(query: LexicalQuery, exclude_terms: Sequence[str] = ()) -> str | None:
    """The FTS5 MATCH string for ``query``; None when nothing positive is searchable."""
    required = [p for p in map(phrase_sql, query.required) if p]
    optional = [p for p in map(phrase_sql, query.optional) if p]
    excluded = [
        p for p in map(phrase_sql, [*query.excluded, *exclusion_clauses(exclude_terms)]) if p
    ]
    if not required and not optional:
        return None
    parts = list(required)
    if optional:
        parts.append("(" + " OR ".join([*required, *optional]) + ")")
    expr = " AND ".join(parts)
    if excluded:
        expr = f"({expr}) NOT ({' OR '.join(dict.fromkeys(excluded))})"
    return expr


class FilterSql(NamedTuple):
    where: str
    params: tuple[object, ...]


def _placeholders(n: int) -> str:
    return ", ".join("?" * n)


def filter_sql(f: SearchFilters, alias: str = "d") -> FilterSql:
    """SQL conditions on ``documents AS alias`` (always including ``active = 1``)."""
    conds = [f"{alias}.active = 1"]
    params: list[object] = []
    if f.collections:
        conds.append(f"{alias}.collection IN ({_placeholders(len(f.collections))})")
        params.extend(f.collections)
    if f.path_prefix:
        conds.append(f"substr({alias}.rel_path, 1, ?) = ?")
        params.extend((len(f.path_prefix), f.path_prefix))
    tags_all = list(dict.fromkeys(normalize_tag(t) for t in f.tags_all))
    for tag in tags_all:
        conds.append(f"EXISTS (SELECT 1 FROM doc_tags t WHERE t.doc_id = {alias}.id AND t.tag = ?)")
        params.append(tag)
    tags_any = list(dict.fromkeys(normalize_tag(t) for t in f.tags_any))
    if tags_any:
        conds.append(
            f"EXISTS (SELECT 1 FROM doc_tags t WHERE t.doc_id = {alias}.id "
            f"AND t.tag IN ({_placeholders(len(tags_any))}))"
        )
        params.extend(tags_any)
    if f.since_ns is not None:
        conds.append(f"{alias}.date_ns >= ?")
        params.append(f.since_ns)
    if f.until_ns is not None:
        conds.append(f"{alias}.date_ns <= ?")
        params.append(f.until_ns)
    if f.categories:
        cats = list(dict.fromkeys(fold(c) for c in f.categories))
        marks = _placeholders(len(cats))
        conds.append(
            f"(gno_fold({alias}.content_type) IN ({marks}) OR EXISTS (SELECT 1 FROM "
            f"json_each({alias}.categories) c WHERE gno_fold(c.value) IN ({marks})))"
        )
        params.extend([*cats, *cats])
    if f.author:
        conds.append(f"instr(gno_fold({alias}.author), ?) > 0")
        params.append(fold(f.author))
    if f.lang:
        want = fold(f.lang)
        conds.append(
            f"(gno_fold({alias}.language) = ? OR substr(gno_fold({alias}.language), 1, ?) = ?)"
        )
        params.extend((want, len(want) + 1, want + "-"))
    if f.memory_scopes is not None:
        from gno_adapters.sqlite.memory import memory_filter_sql  # recall only

        condition, scope_params = memory_filter_sql(f.memory_scopes, alias)
        conds.append(condition)
        params.extend(scope_params)
    if f.metadata is not None:
        from gno_adapters.sqlite.metadata_sql import metadata_sql  # typed filters only

        condition, metadata_params = metadata_sql(f.metadata, alias)
        conds.append(condition)
        params.extend(metadata_params)
    return FilterSql(" AND ".join(conds), tuple(params))


def normalize_tag(tag: str) -> str:
    """Tags are compared NFC-normalized and lowercased."""
    return unicodedata.normalize("NFC", tag.strip()).lower()


class Scan(NamedTuple):
    """A condition on the full-text scan's ``documents_fts.rowid``, checked before scoring."""

    where: str
    params: tuple[object, ...]


NO_SCAN = Scan("", ())


def _scored(scan: Scan) -> str:
    w = ", ".join(str(x) for x in BM25_WEIGHTS)
    extra = f" AND {scan.where}" if scan.where else ""
    return (
        f"SELECT rowid, bm25(documents_fts, {w}) AS s FROM documents_fts"
        f" WHERE documents_fts MATCH ?{extra}"
    )


def search_sql(columns: str, filters: FilterSql, scan: Scan = NO_SCAN) -> str:
    """The search statement; parameters: MATCH string, scan params, filter params, limit.

    ``CROSS JOIN`` keeps the hits as the outer loop (SQLite never reorders it): each hit looks
    its document up by primary key, instead of every active document probing the hits."""
    return (
        f"WITH hits(id, score) AS MATERIALIZED ({_scored(scan)}) "
        f"SELECT {columns}, -hits.score FROM hits CROSS JOIN documents d ON d.id = hits.id "
        f"WHERE {filters.where} "
        "ORDER BY hits.score, d.collection, d.rel_path LIMIT ?"
    )


def top_search_sql(columns: str, scan: Scan = NO_SCAN, where: str = "d.active = 1") -> str:
    """The windowed fast path; parameters: MATCH string, scan params, window, limit. FTS5
    ranks and keeps the best ``window`` ids (of the matches passing ``scan``); only those are
    joined to ``documents`` (passing ``where``, which has no parameters). Each row also carries
    the window's size and its worst score, so the caller can prove nothing outside it could
    rank."""
    return (
        f"WITH top(id, score) AS MATERIALIZED ({_scored(scan)} ORDER BY s LIMIT ?), "
        "edge(n, worst) AS MATERIALIZED (SELECT count(*), max(score) FROM top) "
        f"SELECT {columns}, -top.score, edge.n, edge.worst "
        "FROM top CROSS JOIN documents d ON d.id = top.id CROSS JOIN edge "
        f"WHERE {where} ORDER BY top.score, d.collection, d.rel_path LIMIT ?"
    )


class ApswLexical:
    """The ``LexicalIndex`` port: BM25 over the FTS5 table of an open SQLite index."""

    def __init__(self, rows: Rows) -> None:
        self._db = rows

    @property
    def tokenizer(self) -> str:
        return f"{FTS_TOKENIZER} + {SEGMENTER_ID}"

    def search(self, query: LexicalQuery, filters: SearchFilters, limit: int) -> list[LexicalHit]:
        expr = match_expression(query, filters.exclude_terms)
        if expr is None or limit <= 0:
            return []
        scan, valid_only = NO_SCAN, ""
        if filters.metadata is not None:
            from gno_adapters.sqlite.metadata_values import values_sql  # typed filters only

            typed = values_sql(filters.metadata, "documents_fts.rowid")
            scan = Scan(typed.where, typed.params)
            filters = filters._replace(metadata=None)
            if typed.valid_only:  # read beside ``active``, in the same row
                valid_only = " AND d.metadata_state = 'valid'"
        where = filter_sql(filters)
        if not where.params and where.where == "d.active = 1":
            where = where._replace(where=where.where + valid_only)
            ranked = self._top_hits(expr, limit, scan, where.where)
            if ranked is not None:
                return ranked
        else:
            where = where._replace(where=where.where + valid_only)
        sql = search_sql(DOC_COLUMNS, where, scan)
        rows = self._db.rows("searching", sql, (expr, *scan.params, *where.params, limit))
        return [LexicalHit(to_document(r[:-1]), float(r[-1])) for r in rows]

    def _top_hits(self, expr: str, limit: int, scan: Scan, where: str) -> list[LexicalHit] | None:
        """Search without joining every match: rank inside FTS5, join only a window of the best
        ids (passing ``where``: active ones, valid ones), and prove the answer equals the full
        query's. None (run the full query) when the window could hide a hit: documents failing
        ``where`` took too many of its places, or a document outside it ties with the last one
        kept."""
        window = max(WINDOW_FACTOR * limit, WINDOW_MIN)
        sql = top_search_sql(DOC_COLUMNS, scan, where)
        rows = self._db.rows("searching", sql, (expr, *scan.params, window, limit))
        if not rows:
            return []
        seen, worst = int(rows[0][-2]), float(rows[0][-1])
        if seen == window and (len(rows) < limit or -float(rows[-1][-3]) >= worst):
            return None
        return [LexicalHit(to_document(r[:-3]), float(r[-3])) for r in rows]
