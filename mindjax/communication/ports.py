"""Whether the coordinator's port is free, asked before ``jax.distributed`` binds it.

The XLA coordination service crashes its process (signal 11) when its port is
taken; both ``mindjax-run`` and :func:`mindjax.communication.init` ask first,
so the error names the port instead.
"""
from __future__ import annotations

import errno
import socket

__all__ = ["port_in_use"]


def port_in_use(port: int) -> str | None:
    """Why ``port`` can not be bound on every address of this host, or None when it is free.

    The coordination service binds ``[::]:port`` (all addresses, IPv4 too), so
    that is what is tried, falling back to ``0.0.0.0`` without IPv6.
    ``SO_REUSEADDR`` is set as the service sets it, so a port that only holds
    connections in TIME_WAIT counts as free.

    Arguments:
        port: the TCP port, 1..65535.

    Returns:
        None, or the OS's reason (``"[Errno 98] Address already in use"``).
    """
    families = [(socket.AF_INET6, "::"), (socket.AF_INET, "0.0.0.0")] if socket.has_ipv6 else \
        [(socket.AF_INET, "0.0.0.0")]
    for family, host in families:
        try:
            sock = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue  # no IPv6 on this host: try IPv4
        with sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((host, port))
            except OSError as exc:
                if family == socket.AF_INET6 and exc.errno == errno.EADDRNOTAVAIL:
                    continue
                return str(exc)
            return None
    return None
