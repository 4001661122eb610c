"""``gno models list|pull|path|clear``: which models gno uses, and getting them onto the machine."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from gno_cli.output import Progress, emit, emit_json

if TYPE_CHECKING:
    from gno_adapters.bootstrap.model_wiring import ModelStore
    from gno_cli.context import Context
    from gno_core.model_registry import ModelRole, ModelStatus

ROLES = ("embed", "rerank", "generate", "nli")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("models", help="list, pull and locate models (embedding, rerank, nli)")
    msub = p.add_subparsers(dest="models_command", required=True, metavar="COMMAND")
    ls = msub.add_parser("list", help="every known model and whether it is installed")
    ls.add_argument("--role", choices=ROLES)
    ls.set_defaults(handler=run_list)
    pull = msub.add_parser("pull", help="download a model (resumable, checksummed)")
    pull.add_argument("ref", nargs="?", help="ROLE or ROLE/NAME (e.g. rerank/ms-marco-minilm-l6)")
    pull.add_argument("--all", action="store_true", help="every model that is not bundled")
    pull.add_argument("--force", action="store_true", help="download again even if present")
    pull.add_argument("--offline", action="store_true", help="never touch the network")
    pull.set_defaults(handler=run_pull)
    path = msub.add_parser("path", help="print where a model's files live")
    path.add_argument("ref", nargs="?", default="embed", help="ROLE or ROLE/NAME (default: embed)")
    path.set_defaults(handler=run_path)
    clear = msub.add_parser("clear", help="delete a pulled model and its derived files")
    clear.add_argument("ref", help="ROLE or ROLE/NAME")
    clear.set_defaults(handler=run_clear)


def _store(ctx: Context, offline: bool = False) -> ModelStore:
    from gno_adapters.bootstrap.model_wiring import model_store

    env_offline = any(os.environ.get(v) == "1" for v in ("GNO_OFFLINE", "HF_HUB_OFFLINE"))
    return model_store(ctx.args.index, ctx.args.config, offline=offline or env_offline)


def _split(ref: str) -> tuple[ModelRole, str | None]:
    from gno_core.model_registry import parse_role

    role, _, name = ref.partition("/")
    return parse_role(role), name or None


def _entry(status: ModelStatus) -> dict[str, object]:
    from gno_core.contracts import ModelEntry

    spec = status.spec
    return ModelEntry(
        role=spec.role.value,
        name=spec.name,
        model_id=spec.model_id,
        ref=spec.ref,
        installed=status.installed,
        bundled=spec.bundled,
        default=spec.default,
        path=status.path,
        size_bytes=status.size_bytes,
        license=spec.license,
        source=spec.source,
        missing=list(status.missing) or None,
    ).wire()


def run_list(ctx: Context) -> int:
    from gno_core.model_registry import parse_role

    store = _store(ctx)
    role = parse_role(ctx.args.role) if ctx.args.role else None
    statuses = store.list_models(role)
    if ctx.json:
        emit_json({"models": [_entry(s) for s in statuses]})
        return 0
    for s in statuses:
        mark = "installed" if s.installed else "not installed"
        flags = " (default)" if s.spec.default else ""
        origin = "bundled" if s.spec.bundled else "pull"
        emit(f"{s.spec.ref:<28} {mark:<14} {origin:<8} {s.spec.model_id}{flags}")
    return 0


def run_pull(ctx: Context) -> int:
    store = _store(ctx, ctx.args.offline)
    if ctx.args.all:
        targets: list[tuple[ModelRole, str | None]] = [
            (s.spec.role, s.spec.name) for s in store.list_models() if not s.spec.bundled
        ]
    elif ctx.args.ref:
        targets = [_split(ctx.args.ref)]
    else:
        from gno_core.errors import ValidationError

        raise ValidationError("Name a model to pull (e.g. rerank) or use --all")
    progress = Progress(enabled=not ctx.quiet)
    pulled = []
    for role, name in targets:
        report = _reporter(progress, role.value)
        pulled.append(store.pull(role, name, force=ctx.args.force, progress=report))
        progress.done()
    if ctx.json:
        emit_json({"models": [_entry(s) for s in pulled]})
    elif not ctx.quiet:
        for s in pulled:
            emit(f"{s.spec.ref}: ready at {s.path}")
    return 0


def _reporter(progress: Progress, label: str) -> Callable[[str, int, int | None], None]:
    def report(path: str, done: int, total: int | None) -> None:
        size = f"/{total / 1e6:.1f}" if total else ""
        progress.update(f"{label}: {path} {done / 1e6:.1f}{size} MB")

    return report


def run_path(ctx: Context) -> int:
    role, name = _split(ctx.args.ref)
    emit(str(_store(ctx).path(role, name)))
    return 0


def run_clear(ctx: Context) -> int:
    role, name = _split(ctx.args.ref)
    removed = _store(ctx).clear(role, name)
    if not ctx.quiet:
        emit("removed" if removed else "nothing to remove")
    return 0
