"""The base of every wire contract model: camelCase on the wire, closed, None means absent."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer
from pydantic.alias_generators import to_camel


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


M = TypeVar("M", bound=WireModel)


class Prebuilt(Generic[M]):
    """A contract answer built straight in its wire form: the JSON-ready dict ``wire()`` of the
    ``contract`` model gives (camelCase keys in field order, ``None`` fields left out except
    ``wire_nulls``). For answers of thousands of items read from gno's own store (backlinks of
    a hub, the whole graph), where a model per item costs more than the read and validating
    then serialising them more than the rest of the call. Each builder is tested against the
    committed schema and against ``model().wire()``; ``model()`` validates the answer into the
    contract model (the Python API's form)."""

    __slots__ = ("contract", "data")

    def __init__(self, contract: type[M], data: dict[str, Any]) -> None:
        self.contract = contract
        self.data = data

    def wire(self) -> dict[str, Any]:
        return self.data

    def model(self) -> M:
        return self.contract.model_validate(self.data)
