"""The destination zone of a peer, from the address of the connection alone (never from
``Forwarded`` or ``X-Forwarded-*``): loopback; private IPv4 (RFC 1918), unique-local and
link-local addresses as ``lan``; Tailscale's CGNAT range and ULA prefix and cloud metadata
addresses as ``unknown`` (an overlay or a provider endpoint is neither the LAN nor a known
remote); the unspecified, multicast and reserved addresses, and anything unparsable, as
``unknown``; every other address ``remote``. IPv4-mapped IPv6 addresses are judged as IPv4.
"""

from __future__ import annotations

import ipaddress

from gno_core.egress.values import Zone

__all__ = ["classify_peer"]

_Network = ipaddress.IPv4Network | ipaddress.IPv6Network

_METADATA = frozenset(
    {
        ipaddress.ip_address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack
        ipaddress.ip_address("169.254.170.2"),  # AWS ECS task metadata
        ipaddress.ip_address("fd00:ec2::254"),  # AWS IMDS over IPv6
        ipaddress.ip_address("100.100.100.200"),  # Alibaba Cloud
    }
)
_UNKNOWN: tuple[_Network, ...] = (
    ipaddress.ip_network("100.64.0.0/10"),  # CGNAT, Tailscale's IPv4 range
    ipaddress.ip_network("fd7a:115c:a1e0::/48"),  # Tailscale's IPv6 ULA prefix
)
_LAN: tuple[_Network, ...] = (
    ipaddress.ip_network("10.0.0.0/8"),
    ipaddress.ip_network("172.16.0.0/12"),
    ipaddress.ip_network("192.168.0.0/16"),
    ipaddress.ip_network("169.254.0.0/16"),  # IPv4 link-local
    ipaddress.ip_network("fc00::/7"),  # unique local
    ipaddress.ip_network("fe80::/10"),  # IPv6 link-local
)


def classify_peer(address: str | None) -> Zone:
    """The zone of the peer at ``address`` (an IP address string, IPv6 with or without
    brackets or a ``%zone``)."""
    if not isinstance(address, str):
        return "unknown"
    text = address.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    text = text.split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return "unknown"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip in _METADATA:
        return "unknown"
    if ip.is_loopback:
        return "loopback"
    if any(ip in net for net in _UNKNOWN if net.version == ip.version):
        return "unknown"
    if any(ip in net for net in _LAN if net.version == ip.version):
        return "lan"
    if ip.is_unspecified or ip.is_multicast or ip.is_reserved:
        return "unknown"
    return "remote"
