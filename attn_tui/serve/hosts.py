"""Which names the classroom server answers to: the defence against DNS rebinding.

A web page anywhere (one the teacher has open in another tab) can point a name it controls,
``rebind.attacker.example``, at 127.0.0.1 and then have the teacher's browser load
``http://rebind.attacker.example:8000/`` as its own origin: the browser sends that name as the
``Host``, and the page can read the answer and open the websocket, typing into a session. So
the server answers only to the names it was started for:

- its own address (``--host``), and on loopback any loopback address;
- ``localhost``;
- bound to every interface (``0.0.0.0``, ``::``): any IP address (a browser that sends one has
  typed it: a name cannot rebind to a literal address), and this machine's own name, which the
  start-up banner prints;
- every name given with ``--allow-host`` (a classroom's DNS name, a reverse proxy's).

A name is compared case-folded, without its port or a final dot. And a websocket must carry
the ``Origin`` of a page of this server — the same scheme, host and port as the request — which
every browser sends with one; a missing or foreign Origin is refused too.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Sequence
from urllib.parse import urlsplit

_WILDCARDS = {"0.0.0.0", "::", ""}
_NAME = re.compile(
    r"(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*"
)


def split_host(value: str) -> tuple[str, str]:
    """``Host`` (``name:port``, ``[v6]:port``) → (host folded, port or "")."""
    value = value.strip()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return "", ""
        host, rest = value[1:end], value[end + 1 :]
        port = rest[1:] if rest.startswith(":") else ""
    elif value.count(":") == 1:
        host, port = value.split(":")
    else:
        host, port = value, ""
    return host.rstrip(".").casefold(), port


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None


def valid_name(name: str) -> bool:
    """Can ``name`` be given to ``--allow-host`` (a DNS name or an IP address)?"""
    folded = name.strip().rstrip(".").casefold()
    return _ip(folded) is not None or bool(_NAME.fullmatch(folded))


class Hosts:
    def __init__(self, bound: str, allowed: Sequence[str] = ()) -> None:
        bound = bound.strip()
        self.wildcard = bound in _WILDCARDS
        self.bound_ip = _ip(bound.strip("[]"))
        self.names = {"localhost"} | {n.strip().rstrip(".").casefold() for n in allowed}
        if self.bound_ip is None and not self.wildcard:
            self.names.add(bound.rstrip(".").casefold())  # --host myclass.local
        if self.wildcard:
            for name in (socket.gethostname(), socket.getfqdn()):
                if name:
                    self.names.add(name.rstrip(".").casefold())
        self.allowed_ips = {_ip(n) for n in self.names} - {None}

    def allows(self, host_header: str) -> bool:
        host, port = split_host(host_header)
        if not host or (port and not port.isdigit()):
            return False
        ip = _ip(host)
        if ip is None:
            return host in self.names
        if self.wildcard or ip in self.allowed_ips:
            return True
        if self.bound_ip is not None and self.bound_ip.is_loopback:
            return ip.is_loopback
        return ip == self.bound_ip

    def same_origin(self, origin: str, host_header: str, secure: bool = False) -> bool:
        """Does ``origin`` name the page this request's Host serves (scheme, host, port)?"""
        try:
            parts = urlsplit(origin.strip())
            origin_port = parts.port
        except ValueError:
            return False
        scheme = "https" if secure else "http"
        if parts.scheme != scheme or not parts.hostname or parts.path not in ("", "/"):
            return False
        host, port = split_host(host_header)
        default = 443 if secure else 80
        want_port = int(port) if port else default
        origin_host = parts.hostname.rstrip(".").casefold()
        return origin_host == host and (origin_port or default) == want_port


__all__ = ["Hosts", "split_host", "valid_name"]
