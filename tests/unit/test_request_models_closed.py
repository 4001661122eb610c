"""Closed Python request models (issue 23): every request model, and every model nested in one,
refuses an unknown field (``extra="forbid"``) with the field's path, so a misspelled keyword in
the Python API fails as it does over MCP and REST instead of being dropped."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing
from typing import Any

import pytest
from pydantic import BaseModel, RootModel, ValidationError

from gno_core import contracts
from gno_core.contracts.search_request import Request


def request_models() -> list[type[BaseModel]]:
    """Every ``Request`` subclass in ``gno_core.contracts``, and the models its fields nest."""
    found: dict[str, type[BaseModel]] = {}
    for info in pkgutil.iter_modules(contracts.__path__):
        module = importlib.import_module(f"{contracts.__name__}.{info.name}")
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Request) and obj is not Request:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    todo = list(found.values())
    while todo:
        model = todo.pop()
        for field in model.model_fields.values():
            for nested in nested_models(field.annotation):
                key = f"{nested.__module__}.{nested.__qualname__}"
                if key not in found:
                    found[key] = nested
                    todo.append(nested)
    return sorted(found.values(), key=lambda m: m.__qualname__)


def nested_models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, RootModel):
        # a root model (the metadata predicate) has no fields of its own: its nodes are closed
        return nested_models(annotation.model_fields["root"].annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in nested_models(arg)]


def test_the_walk_finds_the_request_models_of_every_surface() -> None:
    names = {m.__name__ for m in request_models()}
    assert {
        "SearchRequest",
        "QueryRequest",
        "ContextRequest",
        "AskRequest",
        "CaptureRequest",
        "RememberRequest",
        "RenameNoteRequest",
        "QueryMode",
        "CaptureSourceInput",
        "ReceiptInput",
        "SectionTarget",
        "Compare",
        "Group",
        "Not",
    } <= names


@pytest.mark.parametrize("model", request_models(), ids=lambda m: m.__name__)
def test_every_request_model_refuses_an_unknown_field_by_name(model: type[BaseModel]) -> None:
    assert model.model_config.get("extra") == "forbid", model.__name__
    with pytest.raises(ValidationError) as caught:
        model.model_validate({"colection": "foam"})
    extra = [e for e in caught.value.errors() if e["type"] == "extra_forbidden"]
    assert [e["loc"] for e in extra] == [("colection",)]
