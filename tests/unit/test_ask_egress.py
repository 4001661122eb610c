"""Ask's chat endpoint is a ``remote_inference`` destination in its address's zone: before any
passage goes to an endpoint that is not on loopback, the collections of the passages are held
to their egress policy (``gno_core.evidence.inference_egress``), and a receipt is kept. The
endpoint here is an ``httpx.MockTransport`` that counts what reached it: no network."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import httpx
import pytest

from gno_adapters.bootstrap import build, in_memory
from gno_adapters.generation.chat_transport import endpoint_zone
from gno_adapters.generation.openai_chat import OpenAiChatGenerator
from gno_core.contracts.egress_requests import RelaxationConfirmationInput
from gno_core.contracts.evidence_requests import AskRequest
from gno_core.errors import EgressDeniedError
from gno_core.facade import Gno

NOTES = {"alpha.md": "# Alpha\n\nThe quarterly zebracorn review is on Monday.\n"}


@pytest.mark.parametrize(
    ("url", "zone"),
    [
        ("http://127.0.0.1:8080/v1", "loopback"),
        ("http://localhost:11434/v1", "loopback"),
        ("http://[::1]:8080/v1", "loopback"),
        ("http://192.168.1.20:8080/v1", "lan"),
        ("http://[fd00::5]/v1", "lan"),
        ("https://203.0.113.5/v1", "remote"),
        ("http://100.101.102.103/v1", "unknown"),  # an overlay (Tailscale) address
        ("http://169.254.169.254/v1", "unknown"),  # a cloud metadata address
        ("http://no-such-host.invalid/v1", "unknown"),  # does not resolve
    ],
)
def test_an_endpoint_is_in_the_zone_of_its_address(url: str, zone: str) -> None:
    assert endpoint_zone(url) == zone


def asking(url: str) -> tuple[Gno, list[dict[str, Any]]]:
    """A facade over ``NOTES`` whose generator's endpoint is ``url`` (mocked)."""
    seen: list[dict[str, Any]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        reply = {"choices": [{"message": {"content": "The review is on Monday [evidence:E1]."}}]}
        return httpx.Response(200, json=reply)

    made = in_memory(NOTES)
    generator = OpenAiChatGenerator(url, "m", transport=httpx.MockTransport(answer))
    gno = build(replace(made, generator=generator))
    gno.sync()
    return gno, seen


def relax(gno: Gno, collection: str, target: str) -> None:
    state = gno.egress_policy_get(collection)
    gno.egress_policy_set(
        collection,
        target,
        RelaxationConfirmationInput(
            collection=collection,
            current_policy=state.effective_policy,
            current_revision=state.revision,
            target_policy=target,
            acknowledged=True,
        ),
    )


QUESTION = AskRequest(query="When is the quarterly zebracorn review?", verify=True)


def test_nothing_goes_to_a_remote_endpoint_from_a_local_only_collection() -> None:
    gno, seen = asking("https://203.0.113.5/v1")
    with gno, pytest.raises(EgressDeniedError) as denied:
        gno.ask(QUESTION)
    assert seen == []  # not one request reached the endpoint
    details = denied.value.details
    assert details["reason"] == "POLICY_LOCAL_ONLY" and details["zone"] == "remote"
    assert details["omittedCollections"] == [{"collection": "notes", "reason": "POLICY_LOCAL_ONLY"}]
    assert "zebracorn" not in json.dumps(details)


def test_a_lan_policy_reaches_a_lan_endpoint_and_not_a_remote_one() -> None:
    gno, seen = asking("http://192.168.1.20:8080/v1")
    with gno:
        relax(gno, "notes", "lan")
        gno.ask(QUESTION)
        assert len(seen) == 1 and "zebracorn" in json.dumps(seen[0])
        (receipt,) = gno.egress_audit_list().wire()["receipts"]
        assert receipt["action"] == "remote_inference" and receipt["destinationZone"] == "lan"
        assert receipt["decision"] == "allow" and receipt["collections"] == ["notes"]
        assert receipt["operation"] == "gno_ask" and "zebracorn" not in json.dumps(receipt)
    far, far_seen = asking("https://203.0.113.5/v1")
    with far:
        relax(far, "notes", "lan")
        with pytest.raises(EgressDeniedError) as denied:
            far.ask(QUESTION)
        assert far_seen == [] and denied.value.details["reason"] == "POLICY_LAN_ONLY"


def test_a_loopback_endpoint_is_local_whatever_the_policy() -> None:
    gno, seen = asking("http://127.0.0.1:8080/v1")
    with gno:
        gno.ask(QUESTION)  # notes is local_only
        assert len(seen) == 1
        assert gno.egress_audit_list().wire()["receipts"] == []  # nothing left the machine
