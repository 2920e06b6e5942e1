"""``kumite serve``: the web table."""

from __future__ import annotations

import os

from kumite.cli.common import console


def run(host: str, port: int, database_url: str | None, bot_delay: float) -> None:
    import uvicorn

    from kumite.server.app import create_app
    from kumite.server.storage import default_database_url

    url = database_url or os.environ.get("KUMITE_DATABASE_URL") or default_database_url()
    app = create_app(url, bot_delay=bot_delay, freeze_gc=True)
    shown = url if "@" not in url else url.split("@", 1)[-1]  # never print a password
    console.print(f"kumite web table on [bold]http://{host}:{port}/[/bold] — storage: {shown}")
    # Per-message deflate costs more CPU than it saves on loopback-sized game messages.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_per_message_deflate=False)
