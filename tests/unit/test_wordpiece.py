"""gno's WordPiece tokenizer gives the ids of the Hugging Face ``tokenizers`` BERT uncased
pipeline over the same ``vocab.txt``: on awkward strings always, and on real corpora when
``../shared/data`` is there."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from gno_adapters.onnx.wordpiece import WordPieceTokenizer

VOCAB = Path(__file__).resolve().parents[2] / "gno_adapters" / "onnx" / "minilm_l6" / "vocab.txt"
DATA = Path(__file__).resolve().parents[3] / "shared" / "data"

AWKWARD = [
    "",
    "   \t\n",
    "A man is eating food.",
    "[CLS] literal [MASK] tokens[SEP][PAD][UNK]",
    "ΟΔΟΣ Σ σ ς",  # no final-sigma rule
    "İstanbul ǅ ß ﬃ ẞ ᾼ ǰ",
    "naïve café résumé Ångström",
    "nbsp\u00a0line\u2028para\u2029zwsp\u200bbom\ufeffend",
    "ctrl a\x0bb\x0cc\x1cd\x1fe\x85f\x00g\ufffdh\x7fi",
    "中文字符 テスト 한국어 𠀀𪜀",
    "x" * 150 + " short",
    "emoji 😀 ©€™ $5 + 3 = 8 ^ ~ | `",
    "e\u0301 a\u0328\u0301 \U0001d165\U0001d16d",  # combining sequences
    "tab\tsep\rcr\nnl",
    "don't re-use U.S.A. 3.14 1,000 x@y.z",
]


def _reference() -> object:
    tokenizers = pytest.importorskip("tokenizers.implementations")
    ref = tokenizers.BertWordPieceTokenizer(str(VOCAB), lowercase=True)
    ref.enable_truncation(256)
    return ref


def _check(texts: list[str]) -> None:
    ref = _reference()
    mine = WordPieceTokenizer.from_file(VOCAB, max_length=256)
    expected = [e.ids for e in ref.encode_batch(texts)]  # type: ignore[attr-defined]
    got = mine.encode_batch(texts)
    bad = [t[:60] for t, a, b in zip(texts, expected, got, strict=True) if a != b]
    assert not bad, f"{len(bad)} of {len(texts)} differ, first: {bad[:3]!r}"


def test_awkward_strings_match_the_reference() -> None:
    _check(AWKWARD)


def test_truncation_counts_the_special_tokens() -> None:
    ids = WordPieceTokenizer.from_file(VOCAB, max_length=8).encode(
        "one two three four five six seven"
    )
    assert len(ids) == 8 and ids[0] == 101 and ids[-1] == 102


def test_a_vocabulary_without_special_tokens_is_refused() -> None:
    with pytest.raises(ValueError, match="CLS"):
        WordPieceTokenizer(["[UNK]", "a"])


@pytest.mark.slow
def test_real_corpora_match_the_reference() -> None:
    if not DATA.is_dir():
        pytest.skip("../shared/data is not beside the project")
    texts: list[str] = []
    with (DATA / "beir-scifact" / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in list(fh)[:2000]:
            doc = json.loads(line)
            texts.append(f"{doc['title']}\n{doc['text']}")
    for path in sorted((DATA / "fastapi-docs").rglob("*.md"))[::3]:  # 13 languages
        texts.append(path.read_text(encoding="utf-8", errors="replace")[:3000])
    with tarfile.open(DATA / "tldr-pages.tar.gz") as tf:  # 39 languages, many scripts
        members = [m for m in tf.getmembers() if m.isfile() and m.name.endswith(".md")]
        for member in members[:: max(1, len(members) // 1500)]:
            data = tf.extractfile(member)
            assert data is not None
            texts.append(data.read().decode("utf-8", "replace"))
    assert len(texts) > 3000
    _check(texts)
