"""``kumite serve``: the web table."""

from __future__ import annotations

import dataclasses
import ipaddress
import os
import socket
from typing import TYPE_CHECKING, Any

from kumite.cli.common import fail
from kumite.server.settings import ServerSettings
from kumite.tui.console import console

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI


def settings(**values: Any) -> ServerSettings:
    """The server's settings from the command's flags, checked (a bad one: a clear error)."""
    from limits import parse_many

    made = ServerSettings(**values)
    for flag in ("create_rate", "hello_rate", "chat_rate"):
        try:
            parse_many(getattr(made, flag))
        except ValueError:
            raise fail(
                f"--{flag.replace('_', '-')} {getattr(made, flag)!r}: not a rate such as "
                "'30/minute' or '5 per 10 seconds'"
            ) from None
    if made.bot_threads < 1 or made.bot_budget <= 0:
        raise fail("--bot-threads must be at least 1 and --bot-budget above 0")
    if made.bot_memory < 1:
        raise fail("--bot-memory must be at least 1 megabyte")
    if made.bot_processes < 0:
        raise fail("--bot-processes must be 0 (threads) or more")
    if made.full_collection_every < 0:
        raise fail("--full-collection-every must be 0 (never) or more seconds")
    if made.evict_after <= 0:
        raise fail("--evict-after must be above 0 seconds")
    if made.advertise and not made.advertise.startswith(("http://", "https://")):
        raise fail(f"--advertise {made.advertise!r}: not an address such as http://10.0.0.5:8000")
    if made.open_tables_per_client < 1 or made.spectators_per_table < 0:
        raise fail("--max-open-tables must be at least 1 and --max-spectators at least 0")
    if made.silent_sockets_per_client < 1:
        raise fail("--max-silent-sockets must be at least 1")
    for proxy in made.trusted_proxies:
        try:
            ipaddress.ip_network(proxy)  # as uvicorn reads it: no host bits in a network
        except ValueError:
            raise fail(
                f"--trusted-proxy {proxy!r}: not an IP address or network such as 10.0.0.1 "
                "or 10.0.0.0/8"
            ) from None
    return made


def uvicorn_config(
    app: FastAPI, host: str, port: int, settings: ServerSettings, **more: Any
) -> uvicorn.Config:
    """How the server is run by uvicorn (the tests run theirs so too)."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=more.pop("log_level", "warning"),
        # Per-message deflate costs more CPU than it saves on loopback-sized game messages.
        ws_per_message_deflate=False,
        ws_max_size=settings.max_frame,
        # The app believes the proxies the operator names (--trusted-proxy), nobody else:
        # uvicorn's own default believes any X-Forwarded-For from 127.0.0.1, so a client
        # on the same machine (or any, through a proxy that passes the header on) could
        # be any address it liked to every per-address limit.
        proxy_headers=False,
        **more,
    )


def run(
    host: str,
    port: int,
    database_url: str | None,
    bot_delay: float,
    settings: ServerSettings | None = None,
) -> None:
    import uvicorn

    from kumite.server.app import create_app
    from kumite.server.storage import default_database_url

    settings = settings or ServerSettings()
    if not settings.advertise:
        # Where the other servers of a PostgreSQL database forward this one's tables.
        reach = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        reach = f"[{reach}]" if ":" in reach else reach
        settings = dataclasses.replace(settings, advertise=f"http://{reach}:{port}")
    url = database_url or os.environ.get("KUMITE_DATABASE_URL") or default_database_url()
    app = create_app(url, bot_delay=bot_delay, freeze_gc=True, settings=settings, bound_host=host)
    shown = url if "@" not in url else url.split("@", 1)[-1]  # never print a password
    # Bound here, before the address is printed: a port in use is said at once, in one line,
    # and the address printed is one that answers.
    try:
        listening = socket.create_server(
            (host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET
        )
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    console.print(f"kumite web table on [bold]http://{host}:{port}/[/bold] — storage: {shown}")
    if settings.dev_seeds:
        console.print(
            "[bold red]--dev-seeds[/bold red]: clients may choose seeds; whoever knows a "
            "table's seed can work out its hidden cards. For development only."
        )
    uvicorn.Server(uvicorn_config(app, host, port, settings)).run(sockets=[listening])
