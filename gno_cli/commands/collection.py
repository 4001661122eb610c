"""``gno init`` and ``gno collection add|list|remove|rename`` (``policy``: ``egress.py``)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from gno_cli.output import emit, emit_json
from gno_core.defaults import DEFAULT_EXCLUDES, DEFAULT_PATTERN
from gno_core.errors import InvalidPathError, PathNotFoundError, ValidationError
from gno_core.identity import normalize_collection_name
from gno_core.indexing.roots import BROAD_ROOT, check_collection_root, default_collection_name

if TYPE_CHECKING:
    from gno_cli.context import Context
    from gno_core.config import CollectionConfig


def _csv(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def _add_collection_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", "-n", help="collection name (default: the folder name)")
    p.add_argument(
        "--pattern", default=DEFAULT_PATTERN, help="glob of files to index (default: %(default)s)"
    )
    p.add_argument(
        "--include", type=_csv, default=[], help="extra extensions, comma separated (e.g. .txt,.py)"
    )
    p.add_argument(
        "--exclude",
        type=_csv,
        default=None,
        help="names to skip, comma separated (replaces the defaults)",
    )
    p.add_argument(
        "--memory",
        action="store_true",
        help="make it a memory collection (gno remember/recall; facts under facts/)",
    )
    p.add_argument(
        "--allow-broad-root",
        action="store_true",
        help="index a broad folder such as /home, /tmp, /opt or a hidden folder of your home "
        "(refused by default; key stores such as ~/.ssh are refused always)",
    )


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("init", help="create the configuration and index (optionally add a folder)")
    p.add_argument("path", nargs="?", help="a folder to add as the first collection")
    _add_collection_options(p)
    p.set_defaults(handler=run_init)

    coll = sub.add_parser("collection", help="manage collections (indexed folders)")
    csub = coll.add_subparsers(dest="collection_command", required=True, metavar="COMMAND")
    add = csub.add_parser("add", help="add a folder as a collection")
    add.add_argument("path")
    _add_collection_options(add)
    add.set_defaults(handler=run_add)
    ls = csub.add_parser("list", help="list collections")
    ls.set_defaults(handler=run_list)
    rm = csub.add_parser("remove", help="remove a collection (its documents become inactive)")
    rm.add_argument("name")
    rm.set_defaults(handler=run_remove)
    mv = csub.add_parser("rename", help="rename a collection")
    mv.add_argument("old")
    mv.add_argument("new")
    mv.set_defaults(handler=run_rename)
    from gno_cli.commands.egress import register_policy

    register_policy(csub)


def _collection_from(args: argparse.Namespace) -> CollectionConfig:
    from gno_core.config import CollectionConfig

    if not args.path.strip():
        # Path("") is the current folder: an empty argument (an unset shell variable) must
        # not silently index wherever the command happens to run.
        raise ValidationError("The folder path is empty", details={"path": args.path})
    path = Path(args.path).expanduser()
    if not path.is_dir():
        raise PathNotFoundError(f"Folder not found: {args.path}", details={"path": args.path})
    resolved = str(path.resolve())
    home = os.path.realpath(os.path.expanduser("~"))
    try:
        check_collection_root(resolved, home, allow_broad=args.allow_broad_root)
    except InvalidPathError as exc:
        if exc.details.get("code") != BROAD_ROOT:
            raise  # a key store: no override
        raise InvalidPathError(
            f"{exc.message} (or pass --allow-broad-root to index it anyway)",
            details=exc.details,
        ) from exc
    return CollectionConfig(
        name=normalize_collection_name(args.name or default_collection_name(resolved)),
        path=resolved,
        pattern=args.pattern,
        include=tuple(args.include),
        exclude=tuple(args.exclude) if args.exclude is not None else DEFAULT_EXCLUDES,
        memory_managed=args.memory,
    )


#: What to run after adding a collection: the README's flow (``gno index`` syncs and embeds).
NEXT_STEP = "Next: gno index   (syncs the files and embeds them; gno update only syncs)"


def run_init(ctx: Context) -> int:
    config = ctx.gno.init()
    info = None
    if ctx.args.path is not None:
        info = ctx.gno.add_collection(_collection_from(ctx.args))
    if ctx.json:
        emit_json(ctx.gno.list_collections())
    elif not ctx.quiet:
        emit(f"Initialized index '{ctx.gno.index_name}' ({len(config.collections)} collections)")
        if info:
            emit(f"Added collection {info.name} -> {info.path}\n{NEXT_STEP}")
    return 0


def run_add(ctx: Context) -> int:
    info = ctx.gno.add_collection(_collection_from(ctx.args))
    ctx.gno.init()
    if ctx.json:
        emit_json(info.wire())
    elif not ctx.quiet:
        emit(f"Added collection {info.name} -> {info.path} (pattern {info.pattern})\n{NEXT_STEP}")
    return 0


def run_list(ctx: Context) -> int:
    listing = ctx.gno.list_collections()
    if ctx.json:
        emit_json(listing)
        return 0
    if not listing.collections:
        emit("No collections. Add one with: gno collection add <folder>")
    for c in listing.collections:
        extra = f" include={','.join(c.include)}" if c.include else ""
        extra += " memory" if c.memory_managed else ""
        emit(f"{c.name}\t{c.path}\t{c.pattern}{extra}")
    return 0


def run_remove(ctx: Context) -> int:
    info = ctx.gno.remove_collection(ctx.args.name)
    if ctx.json:
        emit_json(info.wire())
    elif not ctx.quiet:
        emit(f"Removed collection {info.name} (files untouched)")
    return 0


def run_rename(ctx: Context) -> int:
    info = ctx.gno.rename_collection(ctx.args.old, ctx.args.new)
    if ctx.json:
        emit_json(info.wire())
    elif not ctx.quiet:
        emit(f"Renamed collection {ctx.args.old.lower()} -> {info.name}")
    return 0
