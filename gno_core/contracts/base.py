"""The base of every wire contract model: camelCase on the wire, closed, None means absent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, Self, TypeVar

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer
from pydantic.alias_generators import to_camel

_set = object.__setattr__


class WireModel(BaseModel):
    """A contract model. Fields set to ``None`` are omitted on the wire, except the ones named in
    ``wire_nulls`` (contracts that pin explicit nulls, such as ``peek@1.0``)."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        frozen=False,
        # Build validators on first use: a CLI run touches a handful of the ~60 contracts.
        defer_build=True,
    )

    wire_nulls: ClassVar[frozenset[str]] = frozenset()

    @model_serializer(mode="wrap")
    def _drop_nones(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        keep = {self.__class__.model_fields[name].alias or name for name in self.wire_nulls}
        return {k: v for k, v in data.items() if v is not None or k in keep}

    def wire(self) -> dict[str, Any]:
        """The JSON-ready dict of this contract (camelCase keys)."""
        return self.model_dump(mode="json", by_alias=True)

    @classmethod
    def trusted(cls, values: dict[str, Any]) -> Self:
        """The model of ``values`` (every field, by name) without validation: for the items of
        an answer gno built from its own store, tens of thousands at a time (~1 us each against
        ~10 us validated). The values must already satisfy the contract: the builders that use
        this are tested against the validated model and the committed schema."""
        model = cls.__new__(cls)
        _set(model, "__dict__", values)
        _set(model, "__pydantic_fields_set__", set(values))
        _set(model, "__pydantic_extra__", None)
        _set(model, "__pydantic_private__", None)
        return model


M = TypeVar("M", bound=WireModel)


class Prebuilt(Generic[M]):
    """A contract answer built straight in its wire form: the JSON-ready dict ``wire()`` of the
    ``contract`` model gives (camelCase keys in field order, ``None`` fields left out except
    ``wire_nulls``). For answers of thousands of items read from gno's own store (backlinks of
    a hub, the whole graph), where a model per item costs more than the read and validating
    then serialising them more than the rest of the call. Each builder is tested against the
    committed schema and against ``model().wire()``; ``model()`` validates the answer into the
    contract model (the Python API's form), or ``build`` makes it (the graph: its ~30,000
    nodes and links as trusted models, the rest validated)."""

    __slots__ = ("build", "contract", "data")

    def __init__(
        self,
        contract: type[M],
        data: dict[str, Any],
        build: Callable[[dict[str, Any]], M] | None = None,
    ) -> None:
        self.contract = contract
        self.data = data
        self.build = build

    def wire(self) -> dict[str, Any]:
        return self.data

    def model(self) -> M:
        if self.build is not None:
            return self.build(self.data)
        return self.contract.model_validate(self.data)
