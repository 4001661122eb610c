"""The issue-23 reproduction on the real foam-docs corpus: "Who maintains the Foam releases?"
used to come back answered, 3/3 claims "supported" by release-checklist lines quoted word for
word. With no semantic verifier configured, no claim is supported and Ask abstains, naming the
reason and the best evidence spans; ``gno status`` says it cannot answer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.integration.cli_helpers import Cli
from tests.schema_check import assert_valid

QUESTION = "Who maintains the Foam releases?"


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    for name in ("GNO_ASK_ENDPOINT", "GNO_ASK_VERIFIER", "GNO_NLI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GNO_EMBED_MODEL", "none")
    return Cli(tmp_path, monkeypatch, capsys)


def test_foam_release_question_abstains_without_a_verifier(cli: Cli, shared_data: Path) -> None:
    cli.ok("collection", "add", str(shared_data / "foam-docs"), "--name", "foam")
    cli.ok("update")
    result = cli.ok("ask", QUESTION, "--json").json()
    assert_valid("ask", result)
    claims = result["verification"]["claims"]
    assert claims["coverage"]["substantive"] >= 1
    assert claims["coverage"]["supported"] == 0
    assert all(c["status"] != "supported" for c in claims["claims"])
    assert result["answerStatus"] == "abstained" and "answer" not in result
    assert result["abstention"]["reason"] == "semantic_verifier_unavailable"
    assert result["abstention"]["evidence"][0]["uri"].startswith("gno://foam/")
    assert result["verification"]["semantic"]["state"] == "unavailable"
    assert cli.ok("status", "--json").json()["capabilities"]["answer"] is False
    text = cli.ok("ask", QUESTION).out
    assert text.startswith("Answer status: abstained (0/")
    assert "[E1] gno://foam/" in text and not re.search(r"[0-9a-f]{64}", text)
