"""What the ONNX models (embedder, reranker, NLI verifier) share: checking a model's files,
and one CPU session."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gno_core.errors import ModelUnavailableError
from gno_core.model_registry import ModelLocation

if TYPE_CHECKING:
    import onnxruntime

#: The session option that lets idle intra-op threads spin (onnxruntime's default is "1").
SPIN_OPTION = "session.intra_op.allow_spinning"


class OnnxModel:
    """What the ONNX models share: the model files they read and their session."""

    _model: ModelLocation
    _session: onnxruntime.InferenceSession | None

    @property
    def location(self) -> ModelLocation:
        """The model files this model reads."""
        return self._model

    @property
    def loaded(self) -> bool:
        """Whether the tokenizer and session are in memory."""
        return self._session is not None


def require_files(model: ModelLocation, role: str) -> None:
    """``MODEL_UNAVAILABLE`` unless the weights and tokenizer of ``model`` are there."""
    for path in (model.weights, model.tokenizer):
        if not Path(path).is_file():
            raise ModelUnavailableError(
                f"{role} model {model.name!r} is missing {path}",
                details={"model": model.model_id, "reason": "missing_file", "path": path},
            )


def cpu_session(source: str | bytes, threads: int) -> onnxruntime.InferenceSession:
    """An inference session on the CPU with ``threads`` intra-op threads, quiet and fully
    optimised. Idle worker threads sleep instead of spinning: a spinning thread takes a core
    from the rest of the process (a new ``gno vsearch`` spent ~80 ms more CPU with it) and the
    kernels give the same bytes either way. onnxruntime's own errors propagate for the caller
    to name."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    options.add_session_config_entry(SPIN_OPTION, "0")
    return onnxruntime.InferenceSession(source, options, providers=["CPUExecutionProvider"])
