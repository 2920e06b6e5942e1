"""A database made by the previous kumite (integer seeds, no bot seed) opens, is migrated in
place, and its unfinished games resume and finish as they would have (issue 14)."""

from __future__ import annotations

import asyncio
import datetime
import random

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    inspect,
    text,
)

from kumite.games.sfrivals.game import GAME
from kumite.server import migrations
from kumite.server.hub import Hub
from kumite.server.storage import Store, token_hash

# The schema as the previous kumite created it (its models, written out).
LEGACY = MetaData()
Table(
    "kumite_tables",
    LEGACY,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("seed", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("status", String(16), nullable=False),
    Column("outcome", JSON, nullable=True),
    Column("rematch_of", String(32), nullable=True, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)
Table(
    "kumite_tokens",
    LEGACY,
    Column("table_id", ForeignKey("kumite_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False),
)
Table(
    "kumite_steps",
    LEGACY,
    Column("table_id", ForeignKey("kumite_tables.id"), primary_key=True),
    Column("index", Integer, primary_key=True),
    Column("choices", JSON, nullable=False),
)
Table(
    "kumite_partial_choices",
    LEGACY,
    Column("table_id", ForeignKey("kumite_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("step", Integer, nullable=False),
    Column("choice", Text, nullable=False),
)
Table(
    "kumite_chat",
    LEGACY,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", ForeignKey("kumite_tables.id"), index=True, nullable=False),
    Column("channel", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

OPTIONS = {"characters": ["ryu", "ken"], "ultra_rule": "card"}
SEATS = [
    {"kind": "human", "agent": None, "name": "Ryu", "claimed": True},
    {"kind": "human", "agent": None, "name": "Ken", "claimed": True},
]


def old_game(seed: int, steps: int) -> tuple[list[dict[int, str]], tuple[int, str] | None]:
    """``steps`` steps of an SF Rivals game and a partial choice toward the next."""
    state = GAME.new_state(seed, OPTIONS)
    rng = random.Random(seed)
    made = []
    for _ in range(steps):
        choices = {d.seat: rng.choice(d.legal) for d in state.pending()}
        state.apply(choices)
        made.append(choices)
    pending = state.pending()
    return made, (pending[0].seat, pending[0].legal[0]) if len(pending) > 1 else None


def make_legacy_database(url: str) -> dict[str, list[dict[int, str]]]:
    """The previous kumite's database: a game under way (steps and a partial choice, tokens
    and chat), a finished one, and one stuck with every choice of a step stored partial."""
    engine = create_engine(url)
    LEGACY.create_all(engine)
    when = datetime.datetime(2026, 11, 30, 12, 0, tzinfo=datetime.UTC)
    games: dict[str, list[dict[int, str]]] = {}
    with engine.begin() as conn:
        for table_id, seed, steps, status in (
            ("playing", 21, 2, "playing"),
            ("done", 22, 0, "finished"),
            ("stuck", 23, 1, "playing"),
        ):
            made, partial = old_game(seed, steps)
            games[table_id] = made
            conn.execute(
                LEGACY.tables["kumite_tables"].insert(),
                {
                    "id": table_id,
                    "game": "sfrivals",
                    "seed": seed,
                    "options": OPTIONS,
                    "seats": SEATS,
                    "status": status,
                    "outcome": None,
                    "rematch_of": None,
                    "created": when,
                    "updated": when,
                },
            )
            for seat in (0, 1):
                conn.execute(
                    LEGACY.tables["kumite_tokens"].insert(),
                    {
                        "table_id": table_id,
                        "seat": seat,
                        "token_hash": token_hash(f"{table_id}{seat}"),
                    },
                )
            for index, choices in enumerate(made):
                conn.execute(
                    LEGACY.tables["kumite_steps"].insert(),
                    {
                        "table_id": table_id,
                        "index": index,
                        "choices": {str(k): v for k, v in choices.items()},
                    },
                )
            if table_id == "playing" and partial is not None:
                seat, choice = partial
                conn.execute(
                    LEGACY.tables["kumite_partial_choices"].insert(),
                    {"table_id": table_id, "seat": seat, "step": steps, "choice": choice},
                )
            if table_id == "stuck":  # killed between the last partial choice and the step
                state = GAME.new_state(seed, OPTIONS)
                for choices in made:
                    state.apply(choices)
                for decision in state.pending():
                    conn.execute(
                        LEGACY.tables["kumite_partial_choices"].insert(),
                        {
                            "table_id": table_id,
                            "seat": decision.seat,
                            "step": steps,
                            "choice": decision.legal[-1],
                        },
                    )
        conn.execute(
            LEGACY.tables["kumite_chat"].insert(),
            {"table_id": "playing", "channel": "table", "seat": 0, "text": "gg", "created": when},
        )
    engine.dispose()
    return games


def test_a_database_of_the_previous_kumite_is_migrated_and_its_games_resume(database_url):
    games = make_legacy_database(database_url)
    store = Store(database_url)
    columns = {c["name"]: c for c in inspect(store.engine).get_columns("kumite_tables")}
    assert isinstance(columns["seed"]["type"], String)
    assert "bot_seed" in columns
    with store.engine.connect() as conn:
        assert migrations.upgrade(conn) == []  # once only
        bot_seeds = dict(conn.execute(text("SELECT id, bot_seed FROM kumite_tables")).all())
        if store.dialect == "sqlite":
            assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
    assert bot_seeds["done"] is None  # finished: its bots never play again
    assert bot_seeds["playing"] and bot_seeds["stuck"]
    assert "maker" in columns  # the open-table limit's count (issue 28)
    assert {"ix_kumite_tables_rematch_of", "ix_kumite_tables_maker"} <= {
        i["name"] for i in inspect(store.engine).get_indexes("kumite_tables")
    }

    async def scenario() -> None:
        hub = Hub(store)
        playing = hub.get("playing")
        assert playing is not None
        assert playing.seed == 21 and playing.step == 2
        assert playing.state.history == games["playing"]
        assert playing.partial  # the acknowledged half of step 3
        assert playing.check_token(1, "playing1")
        assert playing.chat_history(0)[0]["text"] == "gg"
        rng = random.Random(0)
        while not playing.finished:
            for decision in playing.state.pending():
                if decision.seat not in playing.partial:
                    await playing.choose(decision.seat, playing.step, rng.choice(decision.legal))
        replay = GAME.new_state(21, OPTIONS)
        for choices in playing.state.history:
            replay.apply(choices)
        assert replay.outcome is not None and playing.state.outcome is not None
        assert replay.outcome.to_json() == playing.state.outcome.to_json()
        stuck = hub.get("stuck")
        assert stuck is not None and stuck.step == 2  # its waiting step was completed
        await store.aclose()

    asyncio.run(scenario())
    again = Store(database_url)  # what the restarted server finds
    table = again.load("playing")
    assert table is not None and table.status == "finished" and table.seed == 21
    again.close()
