"""The web table's settings: the seed policy, limits, the bot pool and the allowed hosts and
origins (``kumite serve`` flags; ``docs/protocol.md``, "Seeds", "Limits" and "Security")."""

from __future__ import annotations

import dataclasses

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
"""Host names always allowed in a request's ``Host`` header."""


@dataclasses.dataclass(frozen=True)
class ServerSettings:
    """Everything a server operator may tune. The defaults suit a server open to strangers."""

    dev_seeds: bool = False
    """Accept a client's ``seed`` when it creates a table (development and tests only: a
    player who knows the seed can recompute every hidden card and every bot's choice)."""

    # Rate limits per client address, in the notation of the `limits` library
    # ("20/minute", "5 per 10 seconds"; several separated by ";").
    create_rate: str = "30/minute"
    """Tables made (``POST /api/tables`` and rematches)."""
    hello_rate: str = "120/minute"
    """WebSocket hellos (a page reconnecting says hello again)."""
    chat_rate: str = "30/minute"
    """Chat messages."""
    open_tables_per_client: int = 20
    """Unfinished tables one client address may have made (new tables and rematches),
    counted in the database: every process of one database together."""
    spectators_per_table: int = 50
    """Watching sockets at one table (seats' own sockets are not counted)."""
    silent_sockets_per_client: int = 20
    """WebSockets one client address may have open at once that have not said hello yet
    (a page says hello as soon as its socket opens)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (``10.0.0.0/8``) of the reverse proxies whose
    ``X-Forwarded-For`` names the client; nobody else's is believed (none by default: the
    client is the address that connected)."""

    bot_threads: int = 2
    """Bots of all tables think in a pool of this many threads, one move at a time each."""
    bot_processes: int = 0
    """Bots think in this many worker processes instead (0: in the threads), each table's
    always in the same one: a thinking bot then holds no lock the server needs."""
    bot_budget: float = 5.0
    """Seconds a bot may think about one move, counted from when the move is asked for. A
    search bot's own time limit is cut to it; a bot not answered after it (and a grace of a
    quarter of it) plays a random legal move."""
    bot_memory: float = 1024.0
    """Megabytes the bots of one process may keep for data they share between tables (SF
    Rivals' solver bots: loaded solutions, books and solved positions); the least recently
    used are let go of above it."""

    absent_after: float = 120.0
    """Seconds a seat must be silent (no socket, no choice) before the other players may
    hand it to a bot (docs/protocol.md, "Clocks and absent players")."""

    idle_close: float = 24 * 3600.0
    """Seconds after its last step that an unfinished table is closed (0: never)."""

    evict_after: float = 300.0
    """Seconds a table nobody uses (no socket, no bot thinking) stays in memory; it is loaded
    again from storage when next asked for."""

    full_collection_every: float = 600.0
    """Seconds between two full passes of the cycle collector (:mod:`kumite.server.collector`;
    0: never): each stops the server for a moment that grows with the tables and sockets
    open, and frees the cyclic garbage that the frequent short passes leave."""

    advertise: str = ""
    """The address other server processes of the same PostgreSQL database reach this one at
    (``http://host:port``), to forward a table's requests to its owner; empty: this
    process's own ``--host``/``--port`` (docs/deploy.md)."""

    allowed_hosts: tuple[str, ...] = ()
    """``Host`` names accepted besides the loopback names and the bound host ("*" for any,
    "*.example.org" for subdomains): a DNS-rebinding page sends its own name."""
    allowed_origins: tuple[str, ...] = ()
    """WebSocket ``Origin``s accepted besides the server's own (``scheme://host[:port]``)."""

    max_frame: int = 65_536
    """The largest WebSocket frame read (bytes); a bigger one closes the socket (1009)."""
    max_body: int = 262_144
    """The largest REST request body (bytes); a bigger one is refused (413)."""

    def hosts(self, bound: str | None = None) -> list[str]:
        """Every host name accepted in ``Host`` headers."""
        names = [*LOOPBACK_HOSTS, *self.allowed_hosts]
        if bound and bound not in ("0.0.0.0", "::"):
            names.append(f"[{bound}]" if ":" in bound else bound)
        return list(dict.fromkeys(n.lower() for n in names))
