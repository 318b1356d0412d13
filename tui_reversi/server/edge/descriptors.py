"""The server's file descriptors: every connection, pty and log takes one. At
start the soft limit is raised to the hard one (as nginx's
worker_rlimit_nofile); a server with a page port tells its operator in one
line when even that is low (`low_limit_note`)."""

from __future__ import annotations

import resource

# Below this many, the server says so (a connection holds one, its game's pty another).
LOW_LIMIT = 4096


def raise_descriptor_limit() -> int:
    """Raise RLIMIT_NOFILE's soft limit to its hard limit; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def low_limit_note(limit: int) -> str | None:
    """A line for the operator if `limit` descriptors are few for a public server."""
    if limit >= LOW_LIMIT:
        return None
    return (
        f"this process may open only {limit} files (ulimit -n, its hard limit): each "
        "connection and game holds some, and the page's port a quarter at most; raise "
        "LimitNOFILE (systemd) or the hard limit for more"
    )
