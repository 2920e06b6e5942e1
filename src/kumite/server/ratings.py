"""Ratings: OpenSkill (the ``openskill`` package, Plackett-Luce) per player and per bot kind,
per game, from this server's finished rated games (docs/protocol.md, "Ratings").

A game is rated when its table was made rated (the default) and every seat is a bot or is
held by a player (an anonymous seat has nobody to rate). Sides are the game's teams (2vs2)
or single seats; the winners rank first, everyone else next (a draw: all equal). A bot is one
record per bot kind (``bot:<agent>``), so that a newcomer sees how strong each level is. A
player or bot kind at more than one seat of a game (three ``greedy`` bots at an SF DBG table)
is not moved by it: it still counts as an opponent, at its rating.

Each table is rated once (its row in ``kumite_rated``, in the same transaction as the new
ratings); the ratings read are locked for that transaction on PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from typing import Any

from fastapi import APIRouter, Query
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from kumite.server.naming import bot_label, distinct
from kumite.server.storage import RatedRow, RatingRow, Store, now

log = logging.getLogger("kumite.server")

BASE = 1500
"""The display scale's value of a new rating (OpenSkill's ordinal 0)."""
STEP = 100
"""Display points per unit of OpenSkill's ordinal ``mu - 3 sigma``."""


def shown(mu: float, sigma: float) -> int:
    """A rating as players see it: one whole number, never negative (docs/protocol.md,
    "Ratings"): ``1500 + 100 * (mu - 3 sigma)``, at least 0. It only rescales OpenSkill's
    ordinal, so it orders players exactly as the ordinal does."""
    return max(0, round(BASE + STEP * (mu - 3 * sigma)))


@dataclasses.dataclass(frozen=True)
class Entrant:
    subject: str
    """A player's id, or ``bot:<agent>``."""
    name: str
    kind: str
    """``player`` or ``bot``."""


def model() -> Any | None:
    """The rating model, or ``None`` without the ``openskill`` package (``pip install
    'kumite[serve]'``)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    return PlackettLuce()


def entrants(seats: list[dict[str, Any]], holders: dict[int, str]) -> list[Entrant] | None:
    """Who sat where, or ``None`` if some seat has nobody to rate."""
    out = []
    for index, seat in enumerate(seats):
        if seat["kind"] == "bot":
            agent = seat["agent"] or "random"
            out.append(Entrant(f"bot:{agent}", f"{agent} bot", "bot"))
        elif index in holders:
            out.append(Entrant(holders[index], seat["name"], "player"))
        else:
            return None
    return out


def rate(
    store: Store,
    table_id: str,
    game: str,
    seated: list[Entrant],
    sides: list[list[int]],
    outcome: dict[str, Any],
) -> bool:
    """Rate one finished table (once: ``False`` if it was rated already or cannot be)."""
    openskill = model()
    if openskill is None:
        return False
    counts = Counter(e.subject for e in seated)
    try:
        with store.session() as s:
            done = RatedRow(table_id=table_id, rated=now())
            s.add(done)
            s.flush()  # a table rated already fails here, before any rating moves
            subjects = sorted(counts)
            rows = {
                r.subject: r
                for r in s.scalars(
                    select(RatingRow)
                    .where(RatingRow.game == game, RatingRow.subject.in_(subjects))
                    .with_for_update()
                )
            }
            for e in seated:
                if e.subject not in rows:
                    fresh = openskill.rating()
                    row = RatingRow(
                        subject=e.subject,
                        game=game,
                        name=e.name,
                        kind=e.kind,
                        mu=fresh.mu,
                        sigma=fresh.sigma,
                        games=0,
                    )
                    s.add(row)
                    rows[e.subject] = row
            teams = [
                [
                    openskill.rating(
                        mu=rows[seated[i].subject].mu, sigma=rows[seated[i].subject].sigma
                    )
                    for i in side
                ]
                for side in sides
            ]
            winners = set(outcome.get("winners") or ())
            draw = bool(outcome.get("draw"))
            ranks = [0 if draw or winners & set(side) else 1 for side in sides]
            rated = openskill.rate(teams, ranks=ranks)
            changes: dict[str, Any] = {}
            for side, new in zip(sides, rated, strict=True):
                for i, rating in zip(side, new, strict=True):
                    e = seated[i]
                    if counts[e.subject] > 1:
                        continue
                    row = rows[e.subject]
                    before = shown(row.mu, row.sigma)
                    row.mu, row.sigma = float(rating.mu), float(rating.sigma)
                    changes[str(i)] = {
                        "before": before,
                        "after": shown(row.mu, row.sigma),
                        "mu": round(row.mu, 2),
                        "sigma": round(row.sigma, 2),
                    }
                    row.games += 1
                    row.name = e.name
                    row.updated = now()
            done.changes = changes
    except IntegrityError:
        return False
    return True


def changes(store: Store, table_id: str) -> dict[int, dict[str, Any]] | None:
    """How a rated table moved its seats' ratings (seat -> before, after, mu, sigma), or
    ``None`` if it was not rated (yet)."""
    with store.session() as s:
        row = s.get(RatedRow, table_id)
        if row is None or row.changes is None:
            return None
        return {int(seat): dict(change) for seat, change in row.changes.items()}


def leaderboard(
    store: Store, game: str | None, limit: int, kind: str | None
) -> list[dict[str, Any]]:
    """The best first, by the conservative estimate ``mu - 3 sigma`` (OpenSkill's ordinal),
    shown on the display scale (:func:`shown`)."""
    query = select(RatingRow)
    if game is not None:
        query = query.where(RatingRow.game == game)
    if kind is not None:
        query = query.where(RatingRow.kind == kind)
    with store.session() as s:
        rows = list(
            s.scalars(query.order_by((RatingRow.mu - 3 * RatingRow.sigma).desc()).limit(limit))
        )
    out: list[dict[str, Any]] = []
    for r in rows:
        # A bot kind by the name players know it by (its level), as at the table.
        name, title = (
            bot_label(r.game, r.subject.removeprefix("bot:")) if r.kind == "bot" else (r.name, "")
        )
        out.append(
            {
                "name": name,
                "title": title,
                "kind": r.kind,
                "game": r.game,
                "id": r.subject,
                "rating": shown(r.mu, r.sigma),
                "ordinal": round(r.mu - 3 * r.sigma, 2),
                "mu": round(r.mu, 2),
                "sigma": round(r.sigma, 2),
                "games": r.games,
            }
        )
    # Per game, no two rows read alike (two bot kinds of one level).
    for each in {row["game"] for row in out}:
        mine = [row for row in out if row["game"] == each]
        for row, name in zip(mine, distinct([row["name"] for row in mine]), strict=True):
            row["name"] = name
    return out


def router(store: Store) -> APIRouter:
    import anyio

    router = APIRouter()

    @router.get("/api/ratings")
    async def ratings(
        game: str | None = Query(default=None, max_length=32),
        kind: str | None = Query(default=None, pattern="^(player|bot)$"),
        limit: int = Query(default=50, ge=1, le=200),
    ) -> dict[str, Any]:
        rows = await anyio.to_thread.run_sync(leaderboard, store, game, limit, kind)
        return {"available": model() is not None, "ratings": rows}

    return router
