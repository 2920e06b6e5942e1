"""Test helpers: a live server (in a thread or a separate process) and WebSocket seats."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from kumite.cli.serve import uvicorn_config
from kumite.server.app import create_app
from kumite.server.settings import ServerSettings

# The tests replay games with seeds of their own: a development server's setting. The
# tests of the seed policy itself serve with the defaults (``ServerSettings()``).
DEV = ServerSettings(dev_seeds=True)


def logged(runtime: Any) -> list[tuple[Any, dict[str, Any]]]:
    """Every event of a table's game so far, as (event, its JSON as sent), from a replay of
    its choices from the seed: what the table's own log must have sent, each seat what it
    may see. (The JSON is taken at once: a later step may change what an event refers to.)"""
    state = runtime.game.new_state(runtime.seed, runtime.options)
    out = []
    for step, choices in enumerate(runtime.state.history):
        out.extend((e, {"step": step, **e.to_json()}) for e in state.apply(choices))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(base: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"server at {base} did not start")


class ThreadServer:
    """uvicorn in a background thread of the test process."""

    def __init__(
        self, database_url: str, bot_delay: float = 0.0, settings: ServerSettings = DEV
    ) -> None:
        self.app = create_app(database_url, bot_delay=bot_delay, settings=settings)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn_config(self.app, "127.0.0.1", self.port, settings, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        wait_until_up(self.base)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    @property
    def hub(self) -> Any:
        return self.app.state.hub


class ProcessServer:
    """``kumite serve`` in its own process, so that it can be killed with SIGKILL."""

    def __init__(
        self, database_url: str, port: int | None = None, flags: tuple[str, ...] = ("--dev-seeds",)
    ) -> None:
        self.database_url = database_url
        self.flags = flags
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kumite.cli.main",
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                self.database_url,
                "--bot-delay",
                "0",
                *self.flags,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ},
        )
        wait_until_up(self.base)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


def create_table(base: str, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    # A loaded 2-core host can take longer than httpx's 5 s default to make a table.
    response = httpx.post(
        f"{base}/api/tables", json={"game": game, "seats": seats, **extra}, timeout=60
    )
    response.raise_for_status()
    data: dict[str, Any] = response.json()
    return data


class Seat:
    """A WebSocket client in one seat (or a spectator), keeping every message it got."""

    def __init__(
        self,
        base: str,
        table: str,
        seat: int | None = None,
        token: str | None = None,
        hello: bool = True,
    ) -> None:
        self.ws = connect(base.replace("http", "ws") + f"/ws/{table}", open_timeout=10, legacy=True)
        self.seat = seat
        self.token = token
        """The seat's token: the one given, until the hello that took an invited seat is
        answered with the seat's fresh one (the invite's is spent then)."""
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        if hello:
            body: dict[str, Any] = {"type": "hello"}
            if seat is not None:
                body.update(seat=seat, token=token)
            self.send(body)

    def send(self, body: dict[str, Any] | str | bytes) -> None:
        """Send a message (a dict as JSON); ``str`` and ``bytes`` as text and binary frames."""
        self.ws.send(body if isinstance(body, str | bytes) else json.dumps(body))

    def recv(self, timeout: float = 30.0) -> dict[str, Any]:
        raw = self.ws.recv(timeout=timeout)
        text = raw if isinstance(raw, str) else raw.decode()
        self.raw.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "update":
            self.state = message["state"]
        elif message["type"] == "welcome" and message.get("token"):
            self.token = message["token"]
        elif message["type"] == "error":
            self.errors.append(message)
        return message

    def until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"seat {self.seat}: condition not met; last state {self.state}")
            message = self.recv(timeout=left)
            if predicate(message):
                return message

    def at_step(self, step: int, timeout: float = 30.0) -> dict[str, Any]:
        """Wait until this client's state has reached ``step``."""
        if self.state is None or self.state["step"] < step:
            self.until(lambda m: m["type"] == "update" and m["state"]["step"] >= step, timeout)
        assert self.state is not None
        return self.state

    def error(self, timeout: float = 30.0) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error", timeout)

    def ready(self) -> dict[str, Any]:
        """Wait until this seat has a decision (or the game is over); return the state."""
        if self.state is not None and (self.state["decision"] or self.state["outcome"]):
            return self.state
        self.until(
            lambda m: (
                m["type"] == "update" and bool(m["state"]["decision"] or m["state"]["outcome"])
            )
        )
        assert self.state is not None
        return self.state

    def choose(self, pick: Callable[[list[str]], str] | None = None) -> str:
        state = self.ready()
        legal = state["decision"]["legal"]
        choice = pick(legal) if pick else legal[0]
        self.send({"type": "choose", "step": state["step"], "choice": choice})
        reply = self.until(lambda m: m["type"] in ("ack", "error"))
        if reply["type"] == "error":
            raise AssertionError(reply)
        return choice

    def close(self) -> None:
        self.ws.close()


def drive(
    seats: dict[int, Seat],
    pick: Callable[[int, list[str]], str] | None = None,
    limit: int = 400,
) -> list[dict[int, str]]:
    """Play every seat to the end of the game (``pick(seat, legal)``, default the first
    legal choice). Returns the steps as the server applied them."""
    watcher = seats[min(seats)]
    steps: list[dict[int, str]] = []
    for _ in range(limit):
        state = watcher.state
        assert state is not None
        if state["outcome"]:
            return steps
        step = state["step"]
        made: dict[int, str] = {}
        for number in list(state["waiting"]):
            if number not in seats:  # a bot's seat: the server plays it
                continue
            seat = seats[number]
            seat.at_step(step)
            chooser = None if pick is None else (lambda legal, n=number: pick(n, legal))
            made[number] = seat.choose(chooser)
        if made:
            steps.append(made)
        if not watcher.state["outcome"]:
            watcher.at_step(step + 1)
    raise AssertionError("the game did not end")
