"""Contract suite of the ``LexicalIndex`` port, run against every adapter (memory, apsw).

Scores may differ between adapters; the orders of clear-cut cases must not.
"""

from __future__ import annotations

import pytest

from gno_core.domain import SearchFilters, SyncBatch
from gno_core.retrieval.query import LexicalQuery, Phrase, Term, parse_query
from tests.contract.store_support import Store, make_doc, paths, put

DAY_NS = 86_400 * 1_000_000_000


def test_tokenizer_is_described(store: Store) -> None:
    assert isinstance(store.lexical.tokenizer, str) and store.lexical.tokenizer


def test_empty_index_finds_nothing(store: Store) -> None:
    assert paths(store, "anything") == []


def test_optional_terms_rank_but_are_not_required(store: Store) -> None:
    put(
        store,
        make_doc("one.md", "the kettle sits on the stove in the kitchen"),
        make_doc("three.md", "kettle teapot saucer together on a tray in the kitchen"),
        make_doc("two.md", "a kettle and a teapot on the kitchen shelf"),
        make_doc("none.md", "gardening notes about tomatoes and basil"),
        make_doc("filler.md", "weather report for tomorrow morning"),
    )
    got = paths(store, "kettle teapot saucer")
    assert got == ["notes/three.md", "notes/two.md", "notes/one.md"]
    hits = store.lexical.search(parse_query("kettle teapot saucer"), SearchFilters(), 10)
    assert hits[0].bm25 > hits[1].bm25 > hits[2].bm25 > 0


def test_sentence_queries_find_documents_without_every_word(store: Store) -> None:
    put(
        store,
        make_doc("vit.md", "Vitamin D supplementation reduces fracture risk in elderly patients"),
        make_doc("x.md", "Unrelated text about sailing boats"),
    )
    assert paths(store, "does vitamin d lower the risk of hip fractures") == ["notes/vit.md"]


def test_title_weighs_more_than_body(store: Store) -> None:
    put(
        store,
        make_doc("a.md", "notes about many things including compilers", title="Misc"),
        make_doc("b.md", "notes about many things including gardens", title="Compilers"),
        make_doc("c.md", "something else entirely here today", title="Other"),
    )
    assert paths(store, "compilers") == ["notes/b.md", "notes/a.md"]


def test_required_phrases_must_match_as_written(store: Store) -> None:
    put(
        store,
        make_doc("adjacent.md", "the quick brown fox jumps"),
        make_doc("apart.md", "the brown dog and the quick fox"),
        make_doc("other.md", "lorem ipsum dolor"),
    )
    assert paths(store, '"brown fox"') == ["notes/adjacent.md"]
    assert paths(store, '"brown fox" dog') == ["notes/adjacent.md"]
    assert paths(store, '"quick brown" "fox jumps"') == ["notes/adjacent.md"]
    assert paths(store, '"brown fox" "dog and"') == []


def test_required_term_and_optional_terms(store: Store) -> None:
    put(
        store,
        make_doc("both.md", "python asyncio event loop"),
        make_doc("opt.md", "event loop in javascript"),
        make_doc("req.md", "python packaging guide"),
    )
    assert paths(store, '"python" event loop') == ["notes/both.md", "notes/req.md"]


def test_identifiers_with_inner_punctuation_match_as_phrases(store: Store) -> None:
    put(
        store,
        make_doc("a.md", "we upgraded to gpt-4 last week"),
        make_doc("b.md", "gpt models and the number 4"),
    )
    assert paths(store, "gpt-4") == ["notes/a.md"]


def test_exclusions_remove_documents(store: Store) -> None:
    put(
        store,
        make_doc("a.md", "apple pie recipe"),
        make_doc("b.md", "apple crumble recipe with cinnamon"),
        make_doc("c.md", "apple juice and a pie chart"),
    )
    assert paths(store, "apple -pie") == ["notes/b.md"]
    assert paths(store, 'apple -"pie recipe"') == ["notes/b.md", "notes/c.md"]
    assert set(paths(store, "recipe -cinnamon")) == {"notes/a.md"}


def test_exclusions_look_at_path_and_title_too(store: Store) -> None:
    put(
        store,
        make_doc("archive/plan.md", "project plan"),
        make_doc("final.md", "project plan", title="Obsolete plan"),
        make_doc("keep.md", "project plan"),
    )
    assert sorted(paths(store, "project -archive")) == ["notes/final.md", "notes/keep.md"]
    assert sorted(paths(store, "project -obsolete")) == ["notes/archive/plan.md", "notes/keep.md"]


def test_prefix_terms(store: Store) -> None:
    put(
        store,
        make_doc("a.md", "configuration reference"),
        make_doc("b.md", "the config file"),
        make_doc("c.md", "confetti everywhere"),
        make_doc("d.md", "nothing relevant"),
    )
    assert sorted(paths(store, "config*")) == ["notes/a.md", "notes/b.md"]
    assert sorted(paths(store, "conf*")) == ["notes/a.md", "notes/b.md", "notes/c.md"]


def test_plural_and_ing_forms_match(store: Store) -> None:
    put(store, make_doc("a.md", "she keeps several notes"), make_doc("b.md", "running fast"))
    assert paths(store, "note") == ["notes/a.md"]
    assert paths(store, "runs") == ["notes/b.md"]


def test_path_is_searchable(store: Store) -> None:
    put(store, make_doc("projects/zeppelin.md", "body"), make_doc("x.md", "body"))
    assert paths(store, "zeppelin") == ["notes/projects/zeppelin.md"]


def test_inactive_documents_are_never_found(store: Store) -> None:
    put(store, make_doc("a.md", "walrus"), make_doc("b.md", "walrus"))
    store.ledger.apply_batch(SyncBatch("notes", deactivate=("a.md",)))
    assert paths(store, "walrus") == ["notes/b.md"]


def test_ties_break_by_collection_then_path(store: Store) -> None:
    body = "identical marmot text"
    put(
        store,
        make_doc("b.md", body, collection="zeta"),
        make_doc("b.md", body, collection="alpha"),
        make_doc("a.md", body, collection="zeta"),
        make_doc("a.md", body, collection="alpha"),
    )
    assert paths(store, "marmot") == ["alpha/a.md", "alpha/b.md", "zeta/a.md", "zeta/b.md"]
    assert paths(store, "marmot", limit=3) == ["alpha/a.md", "alpha/b.md", "zeta/a.md"]


def test_limit(store: Store) -> None:
    put(store, *(make_doc(f"{i}.md", f"otter {i}") for i in range(5)))
    assert len(paths(store, "otter", limit=2)) == 2
    assert paths(store, "otter", limit=0) == []


# -- filters define the eligible set before the limit -------------------------------------------

STRONG = "quasar quasar quasar quasar"
WEAK = "a single quasar among many other words in a longer passage of text here"


@pytest.mark.parametrize(
    ("weak_extra", "filters"),
    [
        ({"collection": "target"}, {"collections": ("target",)}),
        ({"rel": "deep/in/weak.md"}, {"path_prefix": "deep/"}),
        ({"tags": ("Keep", "x")}, {"tags_all": ("keep", "x")}),
        ({"tags": ("keep",)}, {"tags_any": ("nope", "KEEP")}),
        ({"date": "2030-01-02"}, {"since_ns": 1_893_456_000 * 10**9}),  # 2030-01-01
        ({"date": "2000-01-02"}, {"until_ns": 946_771_200 * 10**9}),  # 2000-01-02
        ({"content_type": "Meeting"}, {"categories": ("meeting",)}),
        ({"categories": ("howto", "ref")}, {"categories": ("REF",)}),
        ({"author": "Grace Hopper"}, {"author": "hopp"}),
        ({"language": "de"}, {"lang": "de"}),
    ],
)
def test_filters_apply_before_the_limit(
    store: Store, weak_extra: dict[str, object], filters: dict[str, object]
) -> None:
    """Many ineligible documents outrank the one eligible document; it must still get the only
    slot."""
    extra = dict(weak_extra)
    collection = str(extra.pop("collection", "notes"))
    rel = str(extra.pop("rel", "weak.md"))
    strong = [
        make_doc(f"s{i}.md", STRONG, tags=("x",), date="2020-06-01", language="en")
        for i in range(6)
    ]
    weak = make_doc(rel, WEAK, collection=collection, **extra)
    put(store, *strong, weak)
    assert paths(store, "quasar", limit=1)[0] != f"{collection}/{rel}"
    assert paths(store, "quasar", limit=1, **filters) == [f"{collection}/{rel}"]


def test_document_date_falls_back_to_mtime(store: Store) -> None:
    put(
        store,
        make_doc("dated.md", "heron", date="2021-05-05", mtime_ns=40 * 365 * DAY_NS),
        make_doc("undated.md", "heron", mtime_ns=51 * 365 * DAY_NS),  # ~2020-12
    )
    since_2020 = 50 * 365 * DAY_NS
    assert sorted(paths(store, "heron", since_ns=since_2020)) == [
        "notes/dated.md",
        "notes/undated.md",
    ]
    assert paths(store, "heron", until_ns=since_2020) == []


def test_exclude_terms_filter_prunes_before_the_limit(store: Store) -> None:
    put(
        store,
        *(make_doc(f"s{i}.md", STRONG + " deprecated") for i in range(3)),
        make_doc("weak.md", WEAK),
    )
    assert paths(store, "quasar", limit=1, exclude_terms=("Deprecated",)) == ["notes/weak.md"]


def test_filters_combine(store: Store) -> None:
    put(
        store,
        make_doc("a/x.md", "ibis", tags=("bird",), author="Ann"),
        make_doc("a/y.md", "ibis", tags=("bird",), author="Bob"),
        make_doc("b/z.md", "ibis", tags=("bird",), author="Ann"),
    )
    assert paths(store, "ibis", path_prefix="a/", tags_any=("bird",), author="ann") == [
        "notes/a/x.md"
    ]


# -- CJK: substring matching --------------------------------------------------------------------

ZH = "我们正在设计一个全文检索引擎，支持中文分词和模糊查询。"
JA = "東京の天気は晴れです。明日はカタカナのテストをします。"
KO = "한국어 문서를 검색합니다. 형태소 분석기가 필요없어요."


@pytest.fixture
def cjk_store(store: Store) -> Store:
    put(
        store,
        make_doc("zh.md", ZH),
        make_doc("ja.md", JA),
        make_doc("ko.md", KO),
        make_doc("en.md", "plain english text about search engines"),
    )
    return store


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("检索", "zh.md"),  # two characters inside a run
        ("全文检索引擎", "zh.md"),  # a longer substring
        ("索", "zh.md"),  # one character in the middle of a run
        ("擎", "zh.md"),  # the last character of a run
        ("询", "zh.md"),  # the last character before punctuation
        ("中文分词", "zh.md"),
        ("天気", "ja.md"),
        ("カタカナ", "ja.md"),
        ("タカ", "ja.md"),
        ("晴れです", "ja.md"),
        ("검색", "ko.md"),  # inside the word 검색합니다
        ("색합", "ko.md"),
        ("분석기", "ko.md"),
        ("어요", "ko.md"),
    ],
)
def test_cjk_text_matches_by_substring(cjk_store: Store, query: str, expected: str) -> None:
    assert paths(cjk_store, query) == [f"notes/{expected}"]


def test_cjk_non_adjacent_characters_do_not_match_as_a_substring(cjk_store: Store) -> None:
    assert paths(cjk_store, '"检引"') == []
    assert paths(cjk_store, "天晴") == []


def test_cjk_mixed_with_latin(store: Store) -> None:
    put(store, make_doc("mix.md", "学习Python编程语言很有趣"), make_doc("x.md", "python"))
    assert paths(store, "编程") == ["notes/mix.md"]
    assert paths(store, "Python编程") == ["notes/mix.md"]
    assert paths(store, "习Python") == ["notes/mix.md"]
    assert paths(store, "python") == ["notes/x.md", "notes/mix.md"]  # the shorter one first


def test_cjk_in_titles_and_paths(store: Store) -> None:
    put(store, make_doc("笔记/会议记录.md", "body", title="项目会议"), make_doc("x.md", "body"))
    assert paths(store, "会议") == ["notes/笔记/会议记录.md"]
    assert paths(store, "记录") == ["notes/笔记/会议记录.md"]


# -- robustness ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        LexicalQuery("x", optional=(Term('"'),)),
        LexicalQuery("x", optional=(Term("AND"), Term("OR"), Term("NOT"), Term("NEAR"))),
        LexicalQuery("x", optional=(Term('ab"c'), Term("col:umn"), Term("^start"))),
        LexicalQuery("x", optional=(Term("*", prefix=True), Term("(x)"))),
        LexicalQuery("x", required=(Phrase(('a"b', "c)")),), excluded=(Term("-"),)),
        LexicalQuery("x", optional=(Term("wal-rus"),), excluded=(Phrase(("{x}",)),)),
        LexicalQuery("x"),
        LexicalQuery("x", excluded=(Term("walrus"),)),
    ],
)
def test_malformed_queries_never_crash(store: Store, query: LexicalQuery) -> None:
    put(store, make_doc("a.md", "walrus and the carpenter: NEAR or AND"))
    store.lexical.search(query, SearchFilters(), 10)
    store.lexical.search(query, SearchFilters(exclude_terms=('"', "*", "AND")), 10)


def test_operator_words_are_plain_words(store: Store) -> None:
    put(store, make_doc("a.md", "walrus and the carpenter"), make_doc("b.md", "or near"))
    got = store.lexical.search(
        LexicalQuery("x", optional=(Term("near"), Term("or"))), SearchFilters(), 10
    )
    assert [h.document.rel_path for h in got] == ["b.md"]


def test_ties_past_the_ranking_window_still_break_by_path(store: Store) -> None:
    # 60 documents score exactly alike: whatever window an adapter ranks in first, the answer
    # is the first paths in order, as if every match had been sorted.
    put(store, *(make_doc(f"t{i:02d}.md", "zebra stripes everywhere") for i in range(60)))
    assert paths(store, "zebra", limit=5) == [f"notes/t{i:02d}.md" for i in range(5)]


def test_inactive_documents_never_crowd_out_active_ones(store: Store) -> None:
    strong = [make_doc(f"gone{i:02d}.md", "zebra zebra zebra zebra") for i in range(60)]
    weak = [
        make_doc(f"kept{i}.md", "a zebra among many other words in a longer note") for i in range(3)
    ]
    put(store, *strong, *weak)
    store.ledger.apply_batch(SyncBatch("notes", deactivate=tuple(d.rel_path for d in strong)))
    assert paths(store, "zebra", limit=3) == [f"notes/kept{i}.md" for i in range(3)]
