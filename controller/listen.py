"""Where the web view listens: ``[HOST:]PORT`` read and checked (the command line's ``--web``
and the configuration's ``[web] listen``)."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

DEFAULT_HOST = "127.0.0.1"
_HOST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")


@dataclass(frozen=True)
class Listen:
    """A host and a TCP port for the web server."""

    host: str = DEFAULT_HOST
    port: int = 8080

    @property
    def loopback(self) -> bool:
        """Only this machine can connect (no token is needed to play)."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_listen(text: str) -> Listen:
    """``8080``, ``0.0.0.0:8080``, ``[::]:8080`` or ``pi.local:8080``; ValueError saying what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("expected [HOST:]PORT such as 8080 or 0.0.0.0:8080, not an empty string")
    text = text.strip()
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host = DEFAULT_HOST
    elif host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
        _check_ip(host, text)
    elif ":" in host:
        raise ValueError(f"expected [HOST:]PORT, not {text!r} (write an IPv6 address in brackets: [::1]:8080)")
    elif not host:
        raise ValueError(f"expected [HOST:]PORT, not {text!r} (no host before the colon)")
    elif not _HOST_NAME.fullmatch(host):
        raise ValueError(f"expected [HOST:]PORT, not {text!r} (not a host name or address)")
    if not port_text.isdigit() or len(port_text) > 5 or not 0 <= int(port_text) <= 65535:
        raise ValueError(f"expected a port 0-65535 (0: any free port) in {text!r}, not {port_text!r}")
    return Listen(host, int(port_text))


def _check_ip(host: str, text: str) -> None:
    try:
        ipaddress.IPv6Address(host)
    except ValueError:
        raise ValueError(f"expected [HOST:]PORT, not {text!r} ({host!r} is not an IPv6 address)") from None
