"""Write tools, registered only with ``--enable-write`` (the registry's gate): ``gno_capture``
(a new note, searchable on return), the collection and folder tools, ``gno_sync`` (answers
when done; a cancelled call stops at the next file), the jobs ``gno_embed`` / ``gno_index`` /
the indexing of a new collection (answer with a job id at once), and the job tools."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import READ_ONLY, Handler, ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated
from gno_core.defaults import TOOL_WRITE_WAIT_SECONDS
from gno_core.errors import ModelUnavailableError, RuntimeFailure, ValidationError
from gno_core.surface import Facade

if TYPE_CHECKING:
    from collections.abc import Callable

    from gno_adapters.mcp.jobs import Jobs, JobWork
    from gno_core.contracts.writes import CaptureReceipt
    from gno_core.jobs import JobContext

WRITE_REQUESTS = "gno_core.contracts.write_requests"
#: A write that adds (never destroys) and does not repeat to the same effect.
ADDS: JSONObject = {
    "readOnlyHint": False,
    "destructiveHint": False,
    "idempotentHint": False,
    "openWorldHint": False,
}
CAPTURE_INPUT = DerivedSchema(f"{WRITE_REQUESTS}:CaptureRequest")


def render_capture(receipt: CaptureReceipt) -> str:
    lines = [
        f"{receipt.collision_policy_result.replace('_', ' ').capitalize()}: {receipt.uri}",
        f"docid: {receipt.docid}",
        f"path: {receipt.rel_path}",
        f"sync: {receipt.sync.status}",
        f"embed: {receipt.embed.status}",
    ]
    if receipt.tags:
        lines.append(f"tags: {', '.join(receipt.tags)}")
    return "\n".join(lines)


def _capture(call: ToolCall) -> JSONObject:
    from gno_core.contracts.write_requests import CaptureRequest

    request = validated(CaptureRequest, call.arguments)
    receipt = call.facade.capture(request, cancelled=call.ctx.cancelled.is_set)
    if call.jobs is not None:  # the server instance its job statuses name
        receipt = receipt.model_copy(update={"server_instance_id": call.jobs.server_instance_id})
    return tool_result(render_capture(receipt), receipt)


CAPTURE = ToolDef(
    name="gno_capture",
    input_schema=CAPTURE_INPUT,
    output="mcp-capture-result",
    handler=_capture,
    write=True,
    requires="capture",
    annotations=dict(ADDS),
)


#: Writes that remove something (a collection from the config, vectors).
REMOVES: JSONObject = {**ADDS, "destructiveHint": True}
#: Reindexing converges to the same state when repeated.
REINDEXES: JSONObject = {**ADDS, "idempotentHint": True}


def _request(call: ToolCall, name: str) -> Any:
    import importlib

    model = getattr(importlib.import_module(WRITE_REQUESTS), name)
    return validated(model, call.arguments)


def _jobs(call: ToolCall) -> Jobs:
    if call.jobs is None:
        raise RuntimeFailure("This server runs no jobs")
    return call.jobs


def _sync_progress(ctx: JobContext) -> Callable[[Any], None]:
    """A job's report of the sync phase: files done and the one being read."""

    def progress(p: Any) -> None:
        ctx.report("sync", p.done, p.total, f"{p.collection}/{p.path}" if p.path else None)

    return progress


def _sync_job(names: list[str]) -> JobWork:
    def work(facade: Facade, ctx: JobContext) -> dict[str, Any]:
        result = facade.sync(
            names, _sync_progress(ctx), lease_wait=TOOL_WRITE_WAIT_SECONDS, cancelled=ctx.cancelled
        )
        return dict(result.wire())

    return work


def _add_collection(call: ToolCall) -> JSONObject:
    from gno_core.contracts.writes import AddCollectionResult
    from gno_core.errors import JobConflictError

    info = call.facade.add_collection_at(_request(call, "AddCollectionRequest"))
    job_id: str | None
    try:
        job_id = _jobs(call).start("add", _sync_job([info.name]), ["sync"])
    except JobConflictError:
        job_id = None  # added; the running job's owner (or gno_sync) indexes it later
    result = AddCollectionResult(
        collection=info.name,
        path=info.path,
        pattern=info.pattern,
        include=info.include,
        exclude=info.exclude,
        job_id=job_id,
        status="started" if job_id else "added",
    )
    text = f"Collection: {info.name} -> {info.path}\n" + (
        f"Job: {job_id}\nStatus: started"
        if job_id
        else "Status: added (another job is running; run gno_sync when it has finished)"
    )
    return tool_result(text, result)


def _remove_collection(call: ToolCall) -> JSONObject:
    request = _request(call, "RemoveCollectionRequest")
    result = call.facade.remove_collection_kept(request.collection)
    text = f"Removed collection {result.collection} (indexed documents kept inactive)"
    return tool_result(text, result)


def _create_folder(call: ToolCall) -> JSONObject:
    result = call.facade.create_folder(_request(call, "CreateFolderRequest"))
    verb = "Created" if result.created else "Exists"
    return tool_result(f"{verb}: {result.collection}/{result.rel_path}", result)


def _collections(collection: str | None) -> list[str] | None:
    return [collection] if collection else None


def _sync(call: ToolCall) -> JSONObject:
    from gno_core.contracts.writes import SyncToolResult

    request = _request(call, "SyncRequest")
    if request.git_pull or request.run_update_cmd:
        raise ValidationError(
            "gitPull and runUpdateCmd are not supported over MCP: run them yourself, then sync"
        )
    result = call.facade.sync(
        _collections(request.collection),
        lease_wait=TOOL_WRITE_WAIT_SECONDS,
        cancelled=call.ctx.cancelled.is_set,
    )
    names = [c.collection for c in result.collections]
    text = (
        f"Synced {', '.join(names) or 'nothing'}: {result.total_added} added, "
        f"{result.total_updated} updated, {result.total_removed} removed, "
        f"{result.total_failed} failed"
    )
    return tool_result(text, SyncToolResult(status="completed", collections=names, result=result))


def _require_model(facade: Facade) -> str:
    fingerprint = facade.fingerprint
    if fingerprint is None:
        raise ModelUnavailableError(
            "No embedding model is installed: run `gno models pull --embed` first"
        )
    return fingerprint


def _embed(call: ToolCall) -> JSONObject:
    from gno_core.contracts.writes import JobStarted

    request = _request(call, "EmbedRequest")
    facade = call.facade
    embedder = _require_model(facade)
    names = _known(facade, request.collection)

    def work(job_facade: Facade, ctx: JobContext) -> dict[str, Any]:
        def progress(p: Any) -> None:
            ctx.report("embed", p.done, p.total)

        result = job_facade.embed(
            names, progress=progress, lease_wait=TOOL_WRITE_WAIT_SECONDS, cancelled=ctx.cancelled
        )
        return dict(result.wire())

    job_id = _jobs(call).start("embed", work, ["embed"])
    started = JobStarted(job_id=job_id, status="started", model=embedder)
    return tool_result(f"Job: {job_id}\nStatus: started\nModel: {embedder}", started)


def _index(call: ToolCall) -> JSONObject:
    from gno_core.contracts.writes import JobStarted

    request = _request(call, "IndexRequest")
    if request.git_pull:
        raise ValidationError("gitPull is not supported over MCP: pull yourself, then index")
    facade = call.facade
    _require_model(facade)
    names = _known(facade, request.collection)

    def work(job_facade: Facade, ctx: JobContext) -> dict[str, Any]:
        def embedded(p: Any) -> None:
            ctx.report("embed", p.done, p.total)

        result = job_facade.index(
            names,
            sync_progress=_sync_progress(ctx),
            embed_progress=embedded,
            lease_wait=TOOL_WRITE_WAIT_SECONDS,
            cancelled=ctx.cancelled,
        )
        return dict(result.wire())

    phases = ["sync", "embed"]
    job_id = _jobs(call).start("index", work, phases)
    collections = names or [c.name for c in facade.list_collections().collections]
    started = JobStarted(
        job_id=job_id,
        status="started",
        collections=collections,
        phases=phases,
        options={"gitPull": False, "runUpdateCmd": False},
    )
    text = (
        f"Job: {job_id}\nStatus: started\nCollections: {', '.join(collections)}\n"
        "Phases: sync → embed"
    )
    return tool_result(text, started)


def _known(facade: Facade, collection: str | None) -> list[str] | None:
    """``[collection]`` (``NOT_FOUND`` before any job starts when unknown), or None for all."""
    if collection is None:
        return None
    listed = [c.name for c in facade.list_collections().collections]
    if collection.lower() not in listed:
        from gno_core.errors import NotFoundError

        raise NotFoundError(
            f"Collection not found: {collection}", details={"collection": collection}
        )
    return [collection.lower()]


def _clear_embeddings(call: ToolCall) -> JSONObject:
    result = call.facade.clear_embeddings(_request(call, "ClearEmbeddingsRequest"))
    text = f"Cleared {result.deleted} {result.mode} vectors of {result.collection}"
    return tool_result(text, result)


def _job_status(call: ToolCall) -> JSONObject:
    request = _request(call, "JobStatusRequest")
    status = _jobs(call).manager.status(request.job_id)
    lines = [f"Job: {status.job_id}", f"Type: {status.type}", f"Status: {status.status}"]
    if status.progress is not None:
        p = status.progress
        lines.append(f"Progress: {p.phase or ''} {p.done}/{p.total}".replace("  ", " "))
    if status.error:
        lines.append(f"Error: {status.error}")
    return tool_result("\n".join(lines), status)


def _list_jobs(call: ToolCall) -> JSONObject:
    request = _request(call, "ListJobsRequest")
    listing = _jobs(call).manager.listing(request.limit)
    lines = [f"Active: {listing.active.job_id if listing.active else 'none'}"]
    lines.extend(f"  {j.job_id} {j.type} {j.status}" for j in listing.recent)
    return tool_result("\n".join(lines), listing)


def _tool(
    name: str,
    model: str,
    output: str | None,
    handler: Handler,
    requires: str,
    annotations: JSONObject,
    *,
    write: bool = True,
) -> ToolDef:
    return ToolDef(
        name=name,
        input_schema=DerivedSchema(f"{WRITE_REQUESTS}:{model}"),
        output=output,
        handler=handler,
        write=write,
        requires=requires,
        annotations=dict(annotations),
    )


ADD_COLLECTION = _tool(
    "gno_add_collection",
    "AddCollectionRequest",
    "mcp-add-collection-result",
    _add_collection,
    "add_collection_at",
    ADDS,
)
CREATE_FOLDER = _tool(
    "gno_create_folder", "CreateFolderRequest", None, _create_folder, "create_folder", REINDEXES
)
SYNC = _tool("gno_sync", "SyncRequest", "mcp-sync-result", _sync, "sync", REINDEXES)
EMBED = _tool("gno_embed", "EmbedRequest", "mcp-embed-result", _embed, "embed", REINDEXES)
CLEAR_EMBEDDINGS = _tool(
    "gno_clear_collection_embeddings",
    "ClearEmbeddingsRequest",
    None,
    _clear_embeddings,
    "clear_embeddings",
    REMOVES,
)
INDEX = _tool("gno_index", "IndexRequest", "mcp-index-result", _index, "index", REINDEXES)
REMOVE_COLLECTION = _tool(
    "gno_remove_collection",
    "RemoveCollectionRequest",
    "mcp-remove-result",
    _remove_collection,
    "remove_collection_kept",
    REMOVES,
)
# The job tools only read the job manager's state: the spec counts them among the read tools,
# so they are served without --enable-write (and the HTTP write gate lets them by).
JOB_STATUS = _tool(
    "gno_job_status",
    "JobStatusRequest",
    "mcp-job-status",
    _job_status,
    "sync",
    READ_ONLY,
    write=False,
)
LIST_JOBS = _tool(
    "gno_list_jobs", "ListJobsRequest", "mcp-job-list", _list_jobs, "sync", READ_ONLY, write=False
)
