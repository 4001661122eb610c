"""RRF fusion."""

from __future__ import annotations

import pytest

from gno_core.retrieval.fusion import Leg, fuse, normalize


def test_agreement_beats_single_leg_and_bonus_applies() -> None:
    fused = fuse(
        [
            Leg("bm25", 2.0, ["a", "b", "c"], primary=True),
            Leg("vector", 2.0, ["b", "d", "a"], primary=True),
        ]
    )
    order = [f.key for f in fused]
    assert order[:2] == ["b", "a"]
    b = fused[0]
    assert b.ranks == {"bm25": 2, "vector": 1}
    assert b.bonus == pytest.approx(0.10)
    assert b.score == pytest.approx(2 / 62 + 2 / 61 + 0.10)
    d = next(f for f in fused if f.key == "d")
    assert d.bonus == pytest.approx(0.04)


def test_variant_legs_get_no_bonus_and_ties_break_by_key() -> None:
    fused = fuse([Leg("x", 0.5, ["z"]), Leg("y", 0.5, ["m"])])
    assert [f.key for f in fused] == ["m", "z"]
    assert all(f.bonus == 0 for f in fused)


def test_duplicates_in_a_leg_count_once() -> None:
    fused = fuse([Leg("bm25", 1.0, ["a", "a", "b"])])
    assert fused[1].ranks["bm25"] == 2


def test_normalize() -> None:
    assert normalize([]) == []
    assert normalize([3.0]) == [1.0]
    assert normalize([2.0, 2.0]) == [1.0, 1.0]
    assert normalize([1.0, 3.0, 2.0]) == [0.0, 1.0, 0.5]
