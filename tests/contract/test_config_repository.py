"""ConfigRepository contract, run against the YAML file adapter and the in-memory fake."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gno_adapters.config import YamlConfigRepository
from gno_adapters.inmemory.config import InMemoryConfigRepository
from gno_core.config import CollectionConfig, GnoConfig
from gno_core.errors import NotInitializedError
from gno_core.ports import ConfigRepository

Factory = Callable[[Path], ConfigRepository]
FACTORIES: dict[str, Factory] = {
    "memory": lambda _tmp: InMemoryConfigRepository(),
    "yaml": lambda tmp: YamlConfigRepository(tmp / "cfg" / "index.yml"),
    "yaml-cached": lambda tmp: YamlConfigRepository(tmp / "cfg" / "index.yml", tmp / "cache"),
}


@pytest.fixture(params=sorted(FACTORIES), ids=sorted(FACTORIES))
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> ConfigRepository:
    return FACTORIES[request.param](tmp_path)


def test_missing_config_is_not_initialized(repo: ConfigRepository) -> None:
    assert not repo.exists()
    with pytest.raises(NotInitializedError):
        repo.load()
    assert repo.location


def test_round_trip(repo: ConfigRepository) -> None:
    config = GnoConfig(
        collections=[CollectionConfig(name="Notes", path="/tmp/notes", include=("txt",))]
    )
    repo.save(config)
    assert repo.exists()
    loaded = repo.load()
    assert loaded == config
    assert loaded.collections[0].name == "notes"
    assert loaded.collections[0].include == (".txt",)
    loaded.collections.clear()
    repo.save(loaded)
    assert repo.load().collections == []


def test_section_reads_one_part_as_plain_values(repo: ConfigRepository) -> None:
    from gno_core.config import RetrievalTracesConfig

    assert repo.section("retrieval_traces") is None  # no configuration yet
    repo.save(GnoConfig())
    assert repo.section("retrieval_traces") == RetrievalTracesConfig().model_dump(mode="json")
    repo.save(GnoConfig(retrieval_traces=RetrievalTracesConfig(enabled=True)))
    on = repo.section("retrieval_traces")
    assert isinstance(on, dict) and on["enabled"] is True
    assert repo.section("no_such_section") is None
