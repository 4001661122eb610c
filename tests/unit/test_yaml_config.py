"""YAML specifics: comments survive saves, malformed files fail with a clear VALIDATION error."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_adapters.config import YamlConfigRepository, resolve_paths
from gno_core.config import CollectionConfig, GnoConfig
from gno_core.errors import ValidationError


def test_user_comments_survive(tmp_path: Path) -> None:
    path = tmp_path / "index.yml"
    repo = YamlConfigRepository(path)
    repo.save(GnoConfig())
    path.write_text("# my precious comment\n" + path.read_text(), encoding="utf-8")
    config = repo.load()
    config.collections.append(CollectionConfig(name="a", path="/tmp/a"))
    repo.save(config)
    text = path.read_text(encoding="utf-8")
    assert "# my precious comment" in text and "name: a" in text


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ("collections: [\n", "Malformed YAML"),
        ("collections:\n  - name: 'Bad Name!'\n    path: /x\n", "collections.0.name"),
        ("surprise: 1\n", "surprise"),
    ],
)
def test_bad_config_files(tmp_path: Path, body: str, needle: str) -> None:
    path = tmp_path / "index.yml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ValidationError, match=needle.replace(".", r"\.")):
        YamlConfigRepository(path).load()


def test_paths_env_overrides(tmp_path: Path) -> None:
    env = {
        "GNO_CONFIG_DIR": str(tmp_path / "c"),
        "GNO_DATA_DIR": str(tmp_path / "d"),
        "GNO_CACHE_DIR": str(tmp_path / "k"),
        "HOME": str(tmp_path),
    }
    p = resolve_paths("Research", None, env)
    assert p.index_name == "research"
    assert p.db_path == tmp_path / "d" / "index-research.sqlite"
    assert p.config_file == tmp_path / "c" / "index-research.yml"
    assert resolve_paths(None, None, env).config_file == tmp_path / "c" / "index.yml"
    xdg = resolve_paths(None, None, {"HOME": str(tmp_path)})
    assert xdg.data_dir == tmp_path / ".local" / "share" / "gno"


def test_cached_config_sees_external_edits(tmp_path: Path) -> None:
    path = tmp_path / "index.yml"
    repo = YamlConfigRepository(path)
    repo.save(GnoConfig())
    first = repo.load()
    first.collections.append(CollectionConfig(name="mutated", path="/x"))
    assert repo.load().collections == [], "callers must not be able to mutate the cache"
    other = YamlConfigRepository(path)
    other.save(GnoConfig(collections=[CollectionConfig(name="b", path="/tmp/b")]))
    assert [c.name for c in repo.load().collections] == ["b"]
