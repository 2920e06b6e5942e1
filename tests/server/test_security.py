"""Hardening (issue 14, docs/protocol.md "Security"): security headers on every answer, the
``Host`` allow-list (DNS rebinding), the WebSocket ``Origin`` check (cross-site WebSocket
hijacking), leaving a seat closes its sockets, and refusals of bodies and frames no
client should send."""

from __future__ import annotations

import dataclasses
import json
import re
import socket

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from kumite.server.security import CONTENT_SECURITY_POLICY
from tests.server.live import DEV, Seat, ThreadServer, create_table

VS_HUMAN = [{"kind": "you"}, {"kind": "human"}]


def close_code(client: Seat) -> int | None:
    """Read until the server closes the socket; its close code."""
    try:
        while True:
            client.recv(timeout=10)
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code


def test_every_answer_carries_the_security_headers(server):
    made = create_table(server.base, "sfrivals", VS_HUMAN)
    paths = [
        "/",
        f"/table/{made['id']}",
        "/replay/x",
        "/static/js/table.js",
        "/static/css/kumite.css",
        "/api/games",
        "/api/tables/nope",  # 404
        f"/api/tables/{made['id']}/record",  # 403
    ]
    for path in paths:
        response = httpx.get(server.base + path)
        headers = response.headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY", path
        assert headers["referrer-policy"] == "no-referrer", path
        assert headers["x-content-type-options"] == "nosniff", path
    invalid = httpx.post(f"{server.base}/api/tables", json={"game": 1})  # 422
    assert invalid.headers["x-content-type-options"] == "nosniff"


def test_the_pages_have_no_inline_script_style_or_handler():
    """What the policy forbids is not in the pages (the browser tests play under it)."""
    from kumite.server.app import STATIC

    for page in ("index.html", "table.html", "replay.html"):
        html = (STATIC / page).read_text()
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == [], page
        assert not re.search(r"<style|\sstyle=|\son[a-z]+=|javascript:", html, re.I), page


def test_a_host_not_allowed_is_refused_and_an_allowed_one_served(database_url):
    settings = dataclasses.replace(DEV, allowed_hosts=("kumite.example",))
    with ThreadServer(database_url, settings=settings) as server:
        rebinding = httpx.get(server.base + "/api/games", headers={"host": "evil.example"})
        assert rebinding.status_code == 400
        assert rebinding.headers["x-content-type-options"] == "nosniff"
        for host in ("kumite.example", "localhost", f"127.0.0.1:{server.port}"):
            assert httpx.get(server.base + "/api/games", headers={"host": host}).status_code == 200
        made = create_table(server.base, "sfrivals", VS_HUMAN)
        path = f"/ws/{made['id']}"
        assert handshake(server.port, path, "evil.example").startswith("HTTP/1.1 400")
        assert handshake(server.port, path, "kumite.example").startswith("HTTP/1.1 101")


def handshake(port: int, path: str, host: str) -> str:
    """The status line answering a WebSocket handshake sent with this ``Host``."""
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request.encode())
        return conn.recv(4096).decode("latin-1").split("\r\n", 1)[0]


def test_a_websocket_from_another_site_is_refused(database_url):
    settings = dataclasses.replace(DEV, allowed_origins=("https://friends.example",))
    with ThreadServer(database_url, settings=settings) as server:
        made = create_table(server.base, "sfrivals", VS_HUMAN)
        url = server.base.replace("http", "ws") + f"/ws/{made['id']}"
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{server.port + 1}"):
            with pytest.raises(InvalidStatus) as refused:
                connect(url, origin=origin, open_timeout=10)  # type: ignore[arg-type]
            assert refused.value.response.status_code == 403, origin
        for origin in (server.base, "https://friends.example", None):  # own, allowed, no browser
            with connect(url, origin=origin, open_timeout=10) as ws:  # type: ignore[arg-type]
                ws.send(json.dumps({"type": "hello"}))
                assert json.loads(ws.recv(timeout=10))["type"] == "welcome"


def test_leaving_a_seat_closes_that_seat_s_sockets_at_once(server):
    made = create_table(server.base, "sfrivals", VS_HUMAN)
    table = made["id"]
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    tab = Seat(server.base, table, 1, tokens[1])
    tab.until(lambda m: m["type"] == "update")
    other_tab = Seat(server.base, table, 1, tab.token)  # the seat's token once taken
    opponent = Seat(server.base, table, 0, tokens[0])
    for client in (other_tab, opponent):
        client.until(lambda m: m["type"] == "update")
    left = httpx.post(
        f"{server.base}/api/tables/{table}/leave", json={"seat": 1, "token": tab.token}
    )
    assert left.status_code == 200
    for client in (tab, other_tab):
        assert client.error()["code"] == "seat-left"
        assert close_code(client) == 4403
    seats = opponent.until(
        lambda m: m["type"] == "update" and not m["state"]["seats"][1]["claimed"]
    )
    assert seats["state"]["seats"][1]["kind"] == "open"
    opponent.send({"type": "ping"})  # the other seat's socket stays
    assert opponent.until(lambda m: m["type"] == "pong")


def test_bodies_no_client_should_send_are_refused(server):
    url = f"{server.base}/api/tables"
    json_type = {"content-type": "application/json"}
    cases = [
        ('{"game": "sfrivals", "seats": [], "options": {"x": NaN}}', 400, "strict JSON"),
        ('{"game": "sfrivals", "seats": [], "options": {"x": Infinity}}', 400, "strict JSON"),
        ('{"game": "sfrivals", "options": ' + "[" * 20 + "]" * 20 + "}", 400, "too deep"),
        ("[" * 100_000 + "]" * 100_000, 400, "strict JSON"),
        ("{" + " " * 300_000 + "}", 413, "too large"),
    ]
    for body, status, words in cases:
        response = httpx.post(url, content=body, headers=json_type)
        assert response.status_code == status, body[:40]
        assert words in response.json()["detail"]
    chunked = httpx.post(url, content=iter([b"{" + b" " * 200_000, b" " * 200_000 + b"}"]))
    assert chunked.status_code == 413  # no Content-Length: counted as it comes
    nul = httpx.post(url, json={"game": "sfrivals", "seats": [{"kind": "you", "name": "a\u0000b"}]})
    assert nul.status_code == 400  # no control character (PostgreSQL cannot store a NUL)
    assert "control character (U+0000)" in nul.json()["detail"]
    assert httpx.get(f"{server.base}/api/tables/%00").status_code == 400  # a control character
    assert httpx.get(f"{server.base}/api/tables/" + "x" * 500).status_code == 404


def test_binary_and_oversized_frames(server):
    made = create_table(server.base, "sfrivals", VS_HUMAN)
    me = Seat(server.base, made["id"], 0, made["links"][0]["token"])
    me.until(lambda m: m["type"] == "update")
    me.send(b"\x00\x01binary")
    assert me.error()["code"] == "malformed"
    me.send("x" * 30_000)  # longer than a message may be, within a frame
    error = me.error()
    assert error["code"] == "malformed" and "too long" in error["message"]
    me.send({"type": "ping"})
    assert me.until(lambda m: m["type"] == "pong")  # kept, as the protocol says
    me.send("x" * 100_000)  # past the largest frame read: the socket is closed (1009)
    assert close_code(me) == 1009
    assert httpx.get(f"{server.base}/api/games").status_code == 200
