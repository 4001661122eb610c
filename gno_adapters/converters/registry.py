"""Which converter takes which extension, run in this process (``InProcessConverters``); the
index process runs them through ``SandboxedConverters`` (``sandbox.py``) instead."""

from __future__ import annotations

import functools
import importlib
import importlib.util
from types import ModuleType

from gno_adapters.converters.common import ConversionFailure
from gno_core.errors import IngestError
from gno_core.ports.converters import Converted, ConvertLimits

#: extension -> converter module of this package
MODULES: dict[str, str] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".xlsx": "xlsx",
    ".pptx": "pptx",
    ".html": "html",
    ".htm": "html",
    ".odt": "odt",
}


def module_for(ext: str) -> ModuleType:
    return importlib.import_module(f"gno_adapters.converters.{MODULES[ext]}")


def available(ext: str) -> bool:
    """Whether the library behind ``ext``'s converter is installed (the ``convert`` extra),
    found without importing it."""
    library: str = module_for(ext).LIBRARY
    try:
        return importlib.util.find_spec(library.split(".", maxsplit=1)[0]) is not None
    except ValueError:
        return False


def version_of(module: ModuleType) -> str:
    """The converter's version: its library's (a new release may convert differently)."""
    if module.DIST is None:
        return str(module.VERSION)
    from importlib.metadata import version

    return version(module.DIST)


@functools.cache
def identity(ext: str) -> tuple[str, str]:
    """``(converter_id, converter_version)`` that ``run`` stamps on ``ext``'s conversions."""
    module = module_for(ext)
    return f"convert/{module.NAME}", version_of(module)


def run(data: bytes, ext: str, limits: ConvertLimits) -> Converted:
    """Convert in this process; raises ``ConversionFailure``."""
    module = module_for(ext)
    try:
        out = module.convert(data, limits)
    except ConversionFailure:
        raise
    except MemoryError:
        raise ConversionFailure("CONVERSION_MEMORY", "Conversion ran out of memory") from None
    except RecursionError:
        raise ConversionFailure("CONVERSION_ERROR", "Document nested too deeply") from None
    except Exception as exc:  # a library's error on a broken file: the file's failure
        raise ConversionFailure("CONVERSION_ERROR", f"{type(exc).__name__}: {exc}") from None
    converter_id, converter_version = identity(ext)
    return Converted(
        markdown=out.markdown(),
        converter_id=converter_id,
        converter_version=converter_version,
        title=out.title,
        warnings=tuple(out.warnings),
    )


class InProcessConverters:
    """The ``DocumentConverter`` port without a sandbox: for trusted input (tests, the
    benchmark's comparison) and for platforms without process limits."""

    def __init__(self) -> None:
        self._extensions = frozenset(ext for ext in MODULES if available(ext))

    def extensions(self) -> frozenset[str]:
        return self._extensions

    def identity(self, ext: str) -> tuple[str, str]:
        return identity(ext)

    def close(self) -> None:
        """Nothing runs between files in this process."""

    def convert(self, data: bytes, ext: str, rel_path: str, limits: ConvertLimits) -> Converted:
        try:
            return run(data, ext, limits)
        except ConversionFailure as exc:
            raise IngestError(exc.reason, exc.message, rel_path=rel_path) from None
