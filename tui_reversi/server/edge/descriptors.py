"""The server's file descriptors: every connection, pty and log takes one. At
start the soft limit is raised to the hard one (as nginx's
worker_rlimit_nofile), and the operator is told in one line when even that is
low for a public server."""

from __future__ import annotations

import resource
from collections.abc import Callable

# Below this many, a server with a page port says so (each visitor holds two or three).
LOW_LIMIT = 4096


def raise_descriptor_limit(note: Callable[[str], None]) -> int:
    """Raise RLIMIT_NOFILE's soft limit to its hard limit; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    limit = soft if soft != resource.RLIM_INFINITY else 1 << 20
    if limit < LOW_LIMIT:
        note(
            f"this process may open only {limit} files (ulimit -n; hard limit {hard}): "
            f"the page port holds a quarter of them at most, {limit // 4} connections; "
            "raise LimitNOFILE (systemd) or the hard limit for more"
        )
    return limit
