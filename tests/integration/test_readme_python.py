"""The README's "From Python" example, run verbatim against a temporary folder of notes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def readme_python_example() -> str:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### From Python", 1)[1]
    match = re.search(r"^```python\n(.*?)^```$", section, flags=re.DOTALL | re.MULTILINE)
    assert match, "README.md has no ```python block under 'From Python'"
    return match.group(1)


def test_readme_example_uses_import_gno_core() -> None:
    example = readme_python_example()
    assert "import gno_core\n" in example
    assert "gno_core.open(" in example
    assert "gno_adapters" not in example


def test_readme_python_example_runs_twice(tmp_path: Path) -> None:
    example = readme_python_example()
    # The example indexes ~/notes: HOME points at a temporary folder that holds one, so the
    # example runs as written, and the GNO_* folders keep the user's own index out of it.
    home = tmp_path / "home"
    notes = home / "notes"
    assert 'Path.home() / "notes"' in example, "the test creates the folder the example names"
    (notes / "planning").mkdir(parents=True)
    (notes / "planning" / "q3.md").write_text(
        "# Q3 planning\n\nThe quarterly planning meeting sets goals.\n\n"
        "Owners: Ana and Ben.\nBudget review follows.\n",
        encoding="utf-8",
    )
    (notes / "travel.md").write_text("# Travel\n\nTrains to Lisbon.\n", encoding="utf-8")
    env = {
        **os.environ,
        "HOME": str(home),
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(tmp_path / "cache"),
    }
    env.pop("GNO_ADAPTERS", None)
    # Run twice: a reader runs the example again, and it must not die on the collection it
    # added the first time (DuplicateError); the second sync finds nothing new.
    for added in ("2", "0"):
        run = subprocess.run(
            [sys.executable, "-c", example],
            check=False,
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        lines = run.stdout.splitlines()
        assert lines[0] == added  # both notes added the first time, none the second
        uri, line, score = lines[1].split()
        assert uri == "gno://notes/planning/q3.md"
        assert int(line) >= 1 and float(score) > 0
        # The hit's five lines, read back from the line the search pointed at.
        assert "quarterly planning" in run.stdout.split(lines[1], 1)[1]
        assert "gno://notes/travel.md" not in run.stdout
    assert (tmp_path / "data" / "index-default.sqlite").is_file()
