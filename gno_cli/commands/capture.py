"""``gno capture``: save a new note into a collection; it is searchable when the command
returns (the same capture as MCP ``gno_capture`` and ``POST /api/capture``)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from gno_cli.options import OneCollection
from gno_cli.output import emit, emit_json
from gno_core.errors import PathNotFoundError, ValidationError
from gno_core.writes.presets import PRESETS, SOURCE_KINDS

if TYPE_CHECKING:
    from gno_cli.context import Context

#: Read at most this much from --stdin or --file: one byte past the largest note a capture may
#: write tells "too large" without reading a runaway pipe to its end.
MAX_INPUT_BYTES = 64 * 1024 * 1024


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "capture", help="save a new note into a collection (searchable when this returns)"
    )
    p.add_argument("content", nargs="*", help="the note's text (or use --stdin / --file)")
    given = p.add_mutually_exclusive_group()
    given.add_argument("--stdin", action="store_true", help="read the note from standard input")
    given.add_argument("--file", help="read the note from this UTF-8 file")
    p.add_argument(
        "-c",
        "--collection",
        action=OneCollection,
        help="target collection (default: the only one)",
    )
    p.add_argument("--title", help="title (and file name) of the note")
    p.add_argument("--path", help="relative path inside the collection")
    p.add_argument("--folder", help="folder inside the collection (default inbox/YYYY-MM-DD)")
    p.add_argument("--preset", choices=list(PRESETS), help="note scaffold")
    p.add_argument("--tags", help="tags, comma separated")
    p.add_argument(
        "--collision-policy",
        choices=("error", "open_existing", "create_with_suffix"),
        help="when the path is taken (default error)",
    )
    p.add_argument("--overwrite", action="store_true", help="replace a note at the same path")
    p.add_argument("--source-kind", choices=SOURCE_KINDS, help="provenance kind (default direct)")
    p.add_argument("--source-url", help="where the content came from")
    p.add_argument("--source-title", help="title of the source")
    p.add_argument("--source-author", help="author of the source")
    p.add_argument("--source-date", help="when the source was observed (ISO 8601)")
    p.add_argument("--source-id", help="the source's own identifier")
    p.set_defaults(handler=run_capture)


def _content(args: argparse.Namespace) -> str | None:
    if args.stdin:
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    elif args.file:
        try:
            with open(args.file, "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
        except OSError as exc:
            raise PathNotFoundError(
                f"Cannot read {args.file}: {exc.strerror or exc}", details={"path": args.file}
            ) from exc
    else:
        return " ".join(args.content) if args.content else None
    if len(data) > MAX_INPUT_BYTES:
        raise ValidationError(
            f"Input is over {MAX_INPUT_BYTES} bytes", details={"code": "TOO_LARGE"}
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError("The note must be UTF-8 text", details={"code": "ENCODING"}) from exc


def _collection(ctx: Context) -> str:
    if ctx.args.collection:
        return str(ctx.args.collection)
    names = [c.name for c in ctx.gno.list_collections().collections]
    if len(names) != 1:
        raise ValidationError(
            "Name the collection with --collection (" + (", ".join(names) or "none yet") + ")",
            details={"collections": names},
        )
    return names[0]


def run_capture(ctx: Context) -> int:
    from gno_core.contracts.write_requests import CaptureRequest

    a = ctx.args
    if a.content and (a.stdin or a.file):
        raise ValidationError("Give the note as arguments, --stdin or --file, not several")
    source: dict[str, Any] = {
        key: value
        for key, value in {
            "kind": a.source_kind,
            "url": a.source_url,
            "title": a.source_title,
            "author": a.source_author,
            "observedAt": a.source_date,
            "externalId": a.source_id,
        }.items()
        if value is not None
    }
    request = CaptureRequest.model_validate(
        {
            "collection": _collection(ctx),
            "content": _content(a),
            "title": a.title,
            "path": a.path,
            "folderPath": a.folder,
            "presetId": a.preset,
            "collisionPolicy": a.collision_policy,
            "overwrite": a.overwrite,
            "tags": [t.strip() for t in (a.tags or "").split(",") if t.strip()],
            "source": source or None,
        }
    )
    receipt = ctx.gno.capture(request)
    if ctx.json:
        emit_json(receipt)
    elif not ctx.quiet:
        emit(f"{receipt.collision_policy_result}: {receipt.uri}\n{receipt.abs_path}")
    return 0
