"""YAML specifics: comments survive saves, malformed files fail with a clear VALIDATION error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gno_adapters.config import YamlConfigRepository, resolve_paths
from gno_adapters.config.yaml_repo import construct
from gno_core.config import (
    ChunkingConfig,
    CollectionConfig,
    GatewayConfig,
    GnoConfig,
    IngestConfig,
)
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


CONFIGS = [
    GnoConfig(),
    GnoConfig(
        collections=[
            CollectionConfig(name="notes", path="/home/me/notes"),
            CollectionConfig(
                name="code", path="/src", pattern="**/*", include=("py", ".TXT"), exclude=()
            ),
        ],
        chunking=ChunkingConfig(max_tokens=200, overlap_percent=10),
        ingest=IngestConfig(max_file_bytes=4096, batch_size=7),
        gateway=GatewayConfig(
            port=0,
            tool_profile="core",
            token_file="/run/token",
            allowed_hosts=["gno.example"],
            allowed_origins=["https://gno.example"],
            session_idle_seconds=12,
        ),
    ),
]


@pytest.mark.parametrize("config", CONFIGS)
def test_cached_config_equals_the_parsed_one(tmp_path: Path, config: GnoConfig) -> None:
    path = tmp_path / "index.yml"
    YamlConfigRepository(path).save(config)
    parsed = YamlConfigRepository(path, tmp_path / "cache").load()  # parses, fills the cache
    assert list((tmp_path / "cache" / "config").glob("*.json"))
    cached = YamlConfigRepository(path, tmp_path / "cache").load()  # a new process: a hit
    assert parsed == config
    assert cached == parsed
    assert cached.model_dump() == parsed.model_dump()
    assert type(cached.collections) is list
    for got, want in zip(cached.collections, parsed.collections, strict=True):
        assert type(got.include) is tuple and type(got.exclude) is tuple
        assert got == want
    assert construct(GnoConfig, config.model_dump(mode="json")) == config


def test_config_cache_follows_the_file_and_survives_damage(tmp_path: Path) -> None:
    path = tmp_path / "index.yml"
    cache = tmp_path / "cache"
    YamlConfigRepository(path).save(GnoConfig())
    assert YamlConfigRepository(path, cache).load().collections == []
    # Another writer changes the file: the entry is keyed by the text, so it is not reused.
    YamlConfigRepository(path).save(GnoConfig(collections=[CollectionConfig(name="b", path="/b")]))
    assert [c.name for c in YamlConfigRepository(path, cache).load().collections] == ["b"]
    (entry,) = (cache / "config").glob("*.json")
    entry.write_text("{not json", encoding="utf-8")
    assert [c.name for c in YamlConfigRepository(path, cache).load().collections] == ["b"]
    # An invalid file is reported each time, never cached.
    path.write_text("surprise: 1\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ValidationError, match="surprise"):
            YamlConfigRepository(path, cache).load()


def test_a_cache_hit_does_not_import_ruamel(tmp_path: Path) -> None:
    path = tmp_path / "index.yml"
    YamlConfigRepository(path).save(GnoConfig(collections=[CollectionConfig(name="a", path="/a")]))
    YamlConfigRepository(path, tmp_path / "cache").load()
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from gno_adapters.config import YamlConfigRepository\n"
        f"repo = YamlConfigRepository(Path({str(path)!r}), Path({str(tmp_path / 'cache')!r}))\n"
        "print(repo.load().collections[0].name)\n"
        "print(sorted(m for m in sys.modules if m.startswith('ruamel')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["a", "[]"]
