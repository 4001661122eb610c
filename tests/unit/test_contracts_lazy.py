"""``gno_core.contracts`` imports its contracts on first use, and every public name still resolves."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pydantic import RootModel

from gno_core import contracts as model
from gno_core.contracts.base import WireModel


def test_every_public_name_resolves_to_its_class() -> None:
    for name in model.__all__:
        value = getattr(model, name)
        if name == "SCHEMAS":
            continue
        assert isinstance(value, type) and value.__name__ == name, name
        assert issubclass(value, WireModel), name


def test_schemas_name_every_output_contract() -> None:
    committed = Path(__file__).resolve().parents[2] / "contracts"
    assert len(model.SCHEMAS) == len(list(committed.glob("*.schema.json")))
    for key, (version, cls) in model.SCHEMAS.items():
        assert version == ("1.2" if key == "context-capsule-v1" else "1.0"), key
        # the metadata predicate is an input contract: a closed union of nodes, no wire model
        assert issubclass(cls, RootModel if key == "metadata-predicate" else WireModel), key
    assert model.SCHEMAS["search-results"][1] is model.SearchResults


def test_unknown_names_are_attribute_errors() -> None:
    try:
        model.NoSuchContract  # noqa: B018
    except AttributeError as exc:
        assert "NoSuchContract" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_importing_the_package_builds_no_contract() -> None:
    code = (
        "import sys\n"
        "from gno_core.contracts import SearchResults\n"
        "print(sorted(m for m in sys.modules if m.startswith('gno_core.contracts.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # The catalogue is the table of where names live (plain strings, no model).
    assert out.stdout.strip() == (
        "['gno_core.contracts.base', 'gno_core.contracts.catalogue', 'gno_core.contracts.search']"
    )
