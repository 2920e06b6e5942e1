"""Playing many games: the simulation spec, one chunk of games, and their tallies.

Determinism: game ``i`` of a simulation is seeded with ``derive_seed(seed, "game", i)`` and
its seat ``s`` agent with ``derive_seed(game_seed, "agent", s)`` (as ``kumite play`` does);
who sits where and which entities they play depend only on ``i``. Chunks are tallied with
integer counters, which add up the same in any order, so the result is the same for any
number of jobs and any backend.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kumite.agents.base import Agent
from kumite.agents.ismcts import untimed
from kumite.agents.registry import make_agent
from kumite.agents.runner import run_game
from kumite.core.errors import OptionsError
from kumite.core.memo import Memo
from kumite.core.registry import get_game
from kumite.core.rng import derive_seed
from kumite.sim.adapters import Adapter, BatchGames, GameSummary, adapter_for
from kumite.sim.banned import RESTRICTED, Restricted
from kumite.sim.design import Design

DESIGNS = ("auto", "balanced", "free")


@dataclasses.dataclass(frozen=True)
class SimSpec:
    """What to simulate. Picklable: it is sent to every worker."""

    game: str
    lineups: tuple[tuple[str, ...], ...]
    """Agent names per seat; game ``i`` uses line-up ``i % len(lineups)``."""
    games: int
    seed: int
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """The game's options (JSON form, a pack overlay's text included)."""
    options_by_players: tuple[tuple[int, Mapping[str, Any]], ...] = ()
    """``(players, options)``: options for line-ups of that many players, instead of
    ``options`` (games whose options depend on the number of seats)."""
    design: str = "auto"
    """``balanced``: entities cycle through every combination (every character pair) in
    turn; ``free``: agents (or the options) choose them; ``auto``: balanced when the game
    has entities and the options fix none."""
    rotate: bool = True
    """Rotate the line-up's seats from game to game, so each agent sits in each seat."""
    label: str = "base"
    stream: str = "game"
    """Seed stream name: runs with different streams use independent games."""
    fast: bool = True
    """Use the game's fast random rollout (same games) when every seat is ``random``."""
    batched: bool = False
    """Play all-``random`` games on the game's batched engine where it has one (many games
    at once on arrays; other random games than the engine's, see ``Adapter.batch_random``)."""
    mirrors: bool = True
    """Balanced designs of a game whose seats may share an entity also deal tables where
    they do (mirror matches); ``False``: only tables of different entities."""
    loops: bool = False
    """Flag games that repeat a position (``Adapter.position`` after every step: slow)."""
    tables: tuple[tuple[str, ...], ...] | None = None
    """The balanced design's tables, listed (game ``k`` plays ``tables[k % len]``) instead of
    every table the game allows: e.g. one pairing, seats alternating."""

    def __post_init__(self) -> None:
        if self.games < 0:
            raise OptionsError("the number of games must not be negative")
        if not self.lineups or any(not lineup for lineup in self.lineups):
            raise OptionsError("give at least one line-up of players")
        if self.design not in DESIGNS:
            raise OptionsError(f"unknown design {self.design!r} (one of: {', '.join(DESIGNS)})")

    def key(self) -> str:
        """A string identifying everything that decides the games."""
        return json.dumps(
            [
                self.game,
                self.lineups,
                self.seed,
                self.options,
                self.options_by_players,
                self.design,
                self.rotate,
                self.stream,
                self.fast,
                self.batched,
                self.mirrors,
                self.loops,
                self.tables,
            ],
            sort_keys=True,
        )

    def to_json(self) -> dict[str, Any]:
        def shown(options: Mapping[str, Any]) -> dict[str, Any]:
            out = dict(options)
            if "pack" in out:
                out["pack"] = "<overlay pack text: see the result's 'pack'>"
            return out

        return {
            "game": self.game,
            "lineups": [list(lineup) for lineup in self.lineups],
            "games": self.games,
            "seed": self.seed,
            "options": shown(self.options),
            **(
                {"options_by_players": {str(n): shown(o) for n, o in self.options_by_players}}
                if self.options_by_players
                else {}
            ),
            "design": self.design,
            "rotate": self.rotate,
            "label": self.label,
            "stream": self.stream,
            **({} if self.mirrors else {"mirrors": False}),
        }


Counts = list[int]
"""``[n, wins, draws]``."""
LOSS, WIN, DRAW = 0, 1, 2
Table = Counter[tuple[Any, ...]]
"""``(*key, result)`` -> games, ``result`` being LOSS, WIN or DRAW (hot-loop friendly)."""

_TABLES = (
    "seats",
    "agents",
    "agent_pairs",
    "entities",
    "entity_pairs",
    "entity_players",
    "cards",
    "card_when",
)


def _table() -> Table:
    return Counter()


FLAG_EXAMPLES = 20
"""Games kept per flag (the lowest indices, so the list is the same however the games were
split into chunks)."""
LIMIT, LOOP = "limit", "loop"
"""Flags of a game: it ended at a limit rule (``Adapter.limit_rules``), it repeated a
position. Every game is also kept under ``reason:<its reason>`` (the report lists the
examples of rare reasons: an unusual end)."""


def _keep(found: list[tuple[int, int]], extra: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    return sorted({*found, *extra})[:FLAG_EXAMPLES]


@dataclasses.dataclass
class Tally:
    """Integer counts of a set of games; tallies of disjoint sets add up.

    Tables (keys; each then split by result):

    * ``seats`` ``(players, seat)``; ``agents`` ``(agent,)``; ``entities`` ``(entity,)``;
      ``entity_players`` ``(entity, players)``: performance by player count;
    * ``agent_pairs``/``entity_pairs`` ``(a, b)``: over ordered seat pairs of a game, a
      WIN when a beat b, a DRAW when the game was drawn (pairs that both won or both lost
      are not counted);
    * ``cards`` ``(scope, verb, card)`` over seats that did it at least once, ``scope``
      being the seat's entity when cards belong to entities (else ``*``), and
      ``card_when`` ``(scope, verb, card, when)``.
    """

    games: int = 0
    draws: int = 0
    reasons: Counter[str] = dataclasses.field(default_factory=Counter)
    lengths: Counter[int] = dataclasses.field(default_factory=Counter)
    seat_games: Counts = dataclasses.field(default_factory=lambda: [0, 0, 0])
    seats: Table = dataclasses.field(default_factory=_table)
    agents: Table = dataclasses.field(default_factory=_table)
    agent_pairs: Table = dataclasses.field(default_factory=_table)
    entities: Table = dataclasses.field(default_factory=_table)
    entity_pairs: Table = dataclasses.field(default_factory=_table)
    entity_players: Table = dataclasses.field(default_factory=_table)
    cards: Table = dataclasses.field(default_factory=_table)
    card_when: Table = dataclasses.field(default_factory=_table)
    flags: Counter[str] = dataclasses.field(default_factory=Counter)
    """Games per flag (:data:`LIMIT`, :data:`LOOP`)."""
    flagged: dict[str, list[tuple[int, int]]] = dataclasses.field(default_factory=dict)
    """``flag -> [(index, seed), ...]``: the first games of each flag (and of each reason,
    ``reason:<reason>``), to replay them."""

    def flag(self, key: str, index: int, seed: int) -> None:
        found = self.flagged.get(key)
        if found is None:
            self.flagged[key] = [(index, seed)]
        elif len(found) < FLAG_EXAMPLES or index < found[-1][0]:
            self.flagged[key] = _keep(found, [(index, seed)])

    def add(
        self,
        agents: Sequence[str],
        summary: GameSummary,
        per_entity: bool,
        index: int = -1,
        seed: int = 0,
        flags: Sequence[str] = (),
        teams: Sequence[int] | None = None,
    ) -> None:
        """Count one game (``index`` and ``seed`` name it among the ``flags`` it raised);
        ``teams``: each seat's team (an index of the game's declared teams), so that
        partners are never compared with each other."""
        n = len(agents)
        winners = summary.winners
        draw = summary.draw
        self.games += 1
        self.draws += draw
        self.reasons[summary.reason] += 1
        if index >= 0:
            self.flag("reason:" + summary.reason, index, seed)
            for f in flags:
                self.flags[f] += 1
                self.flag(f, index, seed)
        self.lengths[summary.length] += 1
        ents = summary.entities
        results = [WIN if s in winners else (DRAW if draw else LOSS) for s in range(n)]
        sg = self.seat_games
        sg[0] += n
        for seat in range(n):
            r = results[seat]
            self.seats[n, seat, r] += 1
            self.agents[agents[seat], r] += 1
            if r:
                sg[r] += 1
            ent = ents[seat]
            if ent is not None:
                self.entities[ent, r] += 1
                self.entity_players[ent, n, r] += 1
        for i, j in itertools.permutations(range(n), 2):
            ri = results[i]
            if teams is not None and teams[i] == teams[j]:
                continue  # partners: no comparison
            if ri == results[j] and not draw:
                continue  # both won or both lost (one of several losers): no comparison
            self.agent_pairs[agents[i], agents[j], ri] += 1
            ei, ej = ents[i], ents[j]
            if ei is not None and ej is not None:
                self.entity_pairs[ei, ej, ri] += 1
        plays = summary.plays
        if plays:
            scope = [(e or "*") if per_entity else "*" for e in ents]
            # Counter.update over an iterable counts in C: this is the hot loop of a sim.
            self.card_when.update([(scope[p[0]], p[3], p[1], p[2], results[p[0]]) for p in plays])
            once = {(p[0], scope[p[0]], p[3], p[1], results[p[0]]) for p in plays}
            self.cards.update([k[1:] for k in once])

    def add_batch(
        self, agents: Sequence[str], b: BatchGames, per_entity: bool, index: Any, seeds: Any
    ) -> None:
        """Games of two seats given as arrays (:class:`BatchGames`), counted in one compiled
        pass (:mod:`kumite.sim.kernels`) into the same keys :meth:`add` would give them one
        by one (tested)."""
        import numpy as np

        from kumite.sim.kernels import count_games

        n = len(b.winner)
        if n == 0:
            return
        ids, cards = list(b.entity_ids), list(b.card_ids)
        seat, ent, pair, card, when, why, lengths = count_games(
            b.entities, b.winner, b.reason, b.length, b.plays,
            len(ids), b.slots, len(b.reasons), per_entity,
        )  # fmt: skip
        self.games += n
        self.draws += int(seat[0, DRAW])
        for k in np.flatnonzero(why).tolist():
            self.reasons[b.reasons[k]] += int(why[k])
        for k in np.flatnonzero(lengths).tolist():
            self.lengths[k] += int(lengths[k])
        sg = self.seat_games
        sg[0] += 2 * n
        sg[WIN] += int(seat[:, WIN].sum())
        sg[DRAW] += int(seat[:, DRAW].sum())
        for s, r in zip(*np.nonzero(seat), strict=True):
            count = int(seat[s, r])
            self.seats[2, int(s), int(r)] += count
            self.agents[agents[s], int(r)] += count
            # two seats: one won and one lost, or both drew: every game compares them
            self.agent_pairs[agents[s], agents[1 - s], int(r)] += count
        for e, s, r in zip(*np.nonzero(ent), strict=True):
            count = int(ent[e, s, r])
            self.entities[ids[e], int(r)] += count
            self.entity_players[ids[e], 2, int(r)] += count
        for e, f, r in zip(*np.nonzero(pair), strict=True):
            self.entity_pairs[ids[e], ids[f], int(r)] += int(pair[e, f, r])
        scopes = ids if per_entity else ["*"]
        for sc, c, r in zip(*np.nonzero(card), strict=True):
            self.cards[scopes[sc], "played", cards[c], int(r)] += int(card[sc, c, r])
        for sc, c, t, r in zip(*np.nonzero(when), strict=True):
            self.card_when[scopes[sc], "played", cards[c], int(t) + 1, int(r)] += int(
                when[sc, c, t, r]
            )
        reason = np.asarray(b.reason)
        for code in np.flatnonzero(why).tolist():
            at = np.flatnonzero(reason == code)[:FLAG_EXAMPLES]
            flag = "reason:" + b.reasons[code]
            self.flagged[flag] = _keep(
                self.flagged.get(flag, []), [(int(index[i]), int(seeds[i])) for i in at]
            )

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.draws += other.draws
        self.reasons.update(other.reasons)
        self.lengths.update(other.lengths)
        for k in range(3):
            self.seat_games[k] += other.seat_games[k]
        self.flags.update(other.flags)
        for key, found in other.flagged.items():
            self.flagged[key] = _keep(self.flagged.get(key, []), found)
        for name in _TABLES:
            mine: Table = getattr(self, name)
            for key, count in getattr(other, name).items():
                mine[key] += count

    def counts(self, name: str) -> dict[Any, Counts]:
        """Table ``name`` as ``key -> [n, wins, draws]`` (a 1-tuple key is unwrapped)."""
        out: dict[Any, Counts] = {}
        table: Table = getattr(self, name)
        for full, count in table.items():
            key = full[:-1] if len(full) > 2 else full[0]
            c = out.get(key)
            if c is None:
                c = out[key] = [0, 0, 0]
            c[0] += count
            if full[-1]:
                c[full[-1]] += count
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "games": self.games,
            "draws": self.draws,
            "reasons": dict(sorted(self.reasons.items())),
            "lengths": {str(k): v for k, v in sorted(self.lengths.items())},
            "seat_games": list(self.seat_games),
        }
        if self.flagged:
            out["flags"] = dict(sorted(self.flags.items()))
            out["flagged"] = {k: [list(x) for x in v] for k, v in sorted(self.flagged.items())}
        for name in _TABLES:
            out[name] = [
                [*(key if isinstance(key, tuple) else (key,)), *counts]
                for key, counts in sorted(
                    self.counts(name).items(), key=lambda kv: _sort_key(kv[0])
                )
            ]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        tally = cls(
            games=int(data["games"]),
            draws=int(data["draws"]),
            reasons=Counter({str(k): int(v) for k, v in data["reasons"].items()}),
            lengths=Counter({int(k): int(v) for k, v in data["lengths"].items()}),
            seat_games=[int(x) for x in data["seat_games"]],
            flags=Counter({str(k): int(v) for k, v in data.get("flags", {}).items()}),
            flagged={
                str(k): [(int(i), int(s)) for i, s in v] for k, v in data.get("flagged", {}).items()
            },
        )
        for name in _TABLES:
            table: Table = getattr(tally, name)
            for row in data.get(name, []):
                key = tuple(row[:-3])
                n, wins, draws = (int(x) for x in row[-3:])
                for result, count in ((WIN, wins), (DRAW, draws), (LOSS, n - wins - draws)):
                    if count:
                        table[(*key, result)] += count
        return tally


def _sort_key(key: Any) -> tuple[str, ...]:
    parts = key if isinstance(key, tuple) else (key,)
    return tuple(f"{p:09d}" if isinstance(p, int) else str(p) for p in parts)


GameRow = tuple[int, int, tuple[str, ...], tuple[str | None, ...], tuple[int, ...], str, int]
"""``(index, seed, agents, entities, winners, reason, length)`` of one game."""


@dataclasses.dataclass
class Chunk:
    """The result of playing games ``start..stop-1``."""

    start: int
    stop: int
    tally: Tally
    rows: list[GameRow]


class Runner:
    """Plays games of one spec (one per worker process; it caches what it can)."""

    def __init__(self, spec: SimSpec) -> None:
        self.spec = spec
        self.game = get_game(spec.game)
        self.adapter: Adapter = adapter_for(spec.game)
        info = self.game.info
        for lineup in spec.lineups:
            if not info.min_players <= len(lineup) <= info.max_players:
                raise OptionsError(
                    f"{info.name} needs {info.min_players}-{info.max_players} players, "
                    f"got {len(lineup)}: {','.join(lineup)}"
                )
        self.base_options = dict(spec.options)
        self.by_players = {n: dict(o) for n, o in spec.options_by_players}
        for opts in (self.base_options, *self.by_players.values()):
            self.game.parse_options(opts)  # fail early on bad options
        self.balanced = self._balanced()
        self._entity_sets: dict[int, Design] = {}
        self._options: dict[tuple[int, tuple[str, ...] | None], tuple[dict[str, Any], Any]] = {}
        self._looped = False
        self._teams: dict[tuple[int, tuple[str, ...] | None], tuple[int, ...]] = {}

    def _balanced(self) -> bool:
        design, adapter = self.spec.design, self.adapter
        if design == "free":
            return False
        possible = bool(adapter.entity) and not any(
            adapter.fixed_entities(o) for o in (self.base_options, *self.by_players.values())
        )
        if design == "balanced" and not possible:
            raise OptionsError(
                "a balanced design needs a game with characters/fighters/heroes and options "
                "that fix none"
            )
        return possible

    def _design(self, players: int) -> Design:
        found = self._entity_sets.get(players)
        if found is None:
            base = self.base(players)
            ids = self.adapter.entity_ids(self.game, base)
            distinct = self.adapter.entities_distinct or not self.spec.mirrors
            found = Design(ids, players, distinct, lambda t: self.adapter.admissible(base, t))
            if not len(found):
                raise OptionsError(f"not enough {self.adapter.entity}s for {players} players")
            self._entity_sets[players] = found
        return found

    def _entity_tuples(self, players: int) -> Design:
        """Every table of entities of the balanced design, in the order it deals them."""
        return self._design(players)

    def assignment(self, index: int) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
        """Agents per seat and (balanced design) entities per seat of game ``index``."""
        lineups = self.spec.lineups
        lineup = lineups[index % len(lineups)]
        k = index // len(lineups)
        n = len(lineup)
        # Rotating a line-up of one agent changes nothing: its games go to the design.
        if self.spec.rotate and len(set(lineup)) > 1:
            r = k % n
            lineup = lineup[r:] + lineup[:r]
            k //= n
        if not self.balanced:
            return lineup, None
        if self.spec.tables is not None:
            return lineup, self.spec.tables[k % len(self.spec.tables)]
        design = self._design(n)
        return lineup, design[k % len(design)]

    def base(self, players: int) -> dict[str, Any]:
        """The options of a game of ``players`` seats, before entities are fixed."""
        return self.by_players.get(players, self.base_options)

    def teams(self, players: int, entities: tuple[str, ...] | None = None) -> tuple[int, ...]:
        """Each seat's team (an index) in a game of ``players`` seats (and these entities),
        as the game declares its teams (:attr:`~kumite.core.game.State.teams`)."""
        found = self._teams.get((players, entities))
        if found is None:
            state = self.game.new_state(0, self.options(players, entities)[0])
            found = self._teams[players, entities] = tuple(
                next(t for t, team in enumerate(state.teams) if s in team) for s in state.players
            )
        return found

    def options(self, players: int, entities: tuple[str, ...] | None) -> tuple[dict[str, Any], Any]:
        found = self._options.get((players, entities))
        if found is None:
            opts = self.base(players)
            if entities is not None:
                opts = self.adapter.with_entities(opts, entities)
            prepared = (
                self.adapter.prepare(self.game, opts) if self.adapter.has_fast_random else None
            )
            found = self._options[players, entities] = (opts, prepared)
        return found

    def play(self, index: int) -> tuple[int, tuple[str, ...], GameSummary]:
        seed = derive_seed(self.spec.seed, self.spec.stream, index)
        agents, entities = self.assignment(index)
        options, prepared = self.options(len(agents), entities)
        adapter = self.adapter
        if prepared is not None and self.spec.fast and all(a == "random" for a in agents):
            rngs = [random.Random(derive_seed(seed, "agent", s)) for s in range(len(agents))]
            return seed, agents, adapter.fast_random(self.game, prepared, rngs)
        state = self.game.new_state(seed, options)
        state.quiet = True
        opts_json = state.options_json
        players = [
            self._agent(name, opts_json, s, derive_seed(seed, "agent", s))
            for s, name in enumerate(agents)
        ]
        if self.spec.loops:
            seen: set[Any] = set()
            self._looped = False

            def step(st: Any, _choices: Any, _events: Any) -> None:
                key = adapter.position(st)
                if key is not None and not self._looped:
                    self._looped = key in seen
                    seen.add(key)

            outcome = run_game(state, players, step)
        else:
            outcome = run_game(state, players)
        return seed, agents, adapter.summarize(state, outcome)

    def _agent(self, name: str, options: Mapping[str, Any], seat: int, seed: int) -> Agent:
        """``name``'s agent, untimed (search bots keep their iteration cap alone: the lab's
        results are seeded). ``AGENT!without=CARD[+CARD…]``: restricted play, the agent
        may not use those cards (``restricted.py``)."""
        base, sep, banned = name.partition(RESTRICTED)
        agent = untimed(make_agent(base, self.game, options, seat, seed))
        if sep:
            return Restricted(agent, frozenset(banned.split("+")), self.adapter.choice_card)
        return agent

    def flags(self, summary: GameSummary) -> list[str]:
        """The flags of a finished game (the last one :meth:`play` played, for loops)."""
        out = [LIMIT] if summary.rule in self.adapter.limit_rules else []
        if self.spec.loops and self._looped:
            out.append(LOOP)
        return out

    def _batched(self, start: int, stop: int) -> dict[int, tuple[int, tuple[str, ...], Any]]:
        """Games ``start..stop-1`` that the batched engine plays (all-``random`` line-ups),
        grouped by their options and played group by group."""
        if not (self.spec.batched and self.adapter.has_batch_random):
            return {}
        groups: dict[Any, list[tuple[int, int, tuple[str, ...]]]] = {}
        prepared_of: dict[Any, Any] = {}
        for index in range(start, stop):
            agents, entities = self.assignment(index)
            if any(a != "random" for a in agents):
                continue
            _, prepared = self.options(len(agents), entities)
            key = (len(agents), entities)
            prepared_of[key] = prepared
            seed = derive_seed(self.spec.seed, self.spec.stream, index)
            groups.setdefault(key, []).append((index, seed, agents))
        out = {}
        for key, games in groups.items():
            summaries = self.adapter.batch_random(
                self.game, prepared_of[key], [seed for _, seed, _ in games]
            )
            for (index, seed, agents), summary in zip(games, summaries, strict=True):
                out[index] = (seed, agents, summary)
        return out

    def vectorized(self) -> bool:
        """``--batched`` with one all-``random`` line-up of two seats: the whole chunk is
        played and counted on arrays (:meth:`Adapter.batch_games`, :meth:`Tally.add_batch`)."""
        spec = self.spec
        return (
            spec.batched
            and self.adapter.has_batch_random
            and len(spec.lineups) == 1
            and len(spec.lineups[0]) == 2
            and set(spec.lineups[0]) == {"random"}
            and spec.tables is None
        )

    def batch_seeds(self, index: Any) -> Any:
        """The seeds of batched games ``index`` (an int array): the stream's base seed plus
        the index, as 64-bit integers (the batched engine hashes each into its own random
        stream) — one derivation for the whole chunk instead of one hash per game."""
        import numpy as np

        base = derive_seed(self.spec.seed, self.spec.stream, "batched")
        total = np.uint64(base) + np.asarray(index, dtype=np.uint64)
        return total.view(np.int64) & np.int64(2**63 - 1)

    def warm(self) -> None:
        """Fill and compile the batched engine before workers fork, so they share it."""
        if self.vectorized():
            _, prepared = self.options(2, None)
            self.adapter.batch_warm(self.game, prepared)

    def _vector_chunk(self, start: int, stop: int, rows: bool) -> Chunk:
        import numpy as np

        lineup = self.spec.lineups[0]
        index = np.arange(start, stop, dtype=np.int64)
        seeds = self.batch_seeds(index)
        _, prepared = self.options(2, None)
        entities = None
        ids: Sequence[str] = ()
        if self.balanced:
            design = self._design(2)
            ids = design.ids
            entities = design.indices(index)
        batch = self.adapter.batch_games(self.game, prepared, seeds, entities, ids)
        tally = Tally()
        tally.add_batch(lineup, batch, self.adapter.cards_per_entity, index, seeds)
        out: list[GameRow] = []
        if rows:
            names = batch.entity_ids
            for i in range(len(index)):
                w = int(batch.winner[i])
                out.append(
                    (
                        int(index[i]),
                        int(seeds[i]),
                        lineup,
                        (names[int(batch.entities[i, 0])], names[int(batch.entities[i, 1])]),
                        () if w < 0 else (w,),
                        batch.reasons[int(batch.reason[i])],
                        int(batch.length[i]),
                    )
                )
        return Chunk(start, stop, tally, out)

    def chunk(self, start: int, stop: int, rows: bool = True) -> Chunk:
        if self.vectorized():
            return self._vector_chunk(start, stop, rows)
        tally = Tally()
        out: list[GameRow] = []
        per_entity = self.adapter.cards_per_entity
        batched = self._batched(start, stop)
        for index in range(start, stop):
            found = batched.get(index)
            seed, agents, summary = self.play(index) if found is None else found
            _, entities = self.assignment(index)
            teams = self.teams(len(agents), entities)
            tally.add(agents, summary, per_entity, index, seed, self.flags(summary), teams)
            if rows:
                out.append(
                    (
                        index,
                        seed,
                        agents,
                        summary.entities,
                        summary.winners,
                        summary.reason,
                        summary.length,
                    )
                )
        return Chunk(start, stop, tally, out)


_RUNNERS: Memo[str, Runner] = Memo(8)


def runner_for(spec: SimSpec) -> Runner:
    """This process's runner of ``spec`` (kept: it caches options, designs, engines)."""
    key = spec.key()
    runner = _RUNNERS.get(key)
    if runner is None:
        runner = _RUNNERS.put(key, Runner(spec))
    return runner


def run_chunk(spec: SimSpec, start: int, stop: int, rows: bool = True) -> Chunk:
    """Play games ``start..stop-1`` of ``spec`` (the worker entry point of every backend)."""
    return runner_for(spec).chunk(start, stop, rows)


def chunks(games: int, jobs: int, size: int | None = None) -> Iterable[tuple[int, int]]:
    """``(start, stop)`` ranges covering ``range(games)``: small enough for a lively
    progress bar and to balance the workers, large enough to keep overhead low."""
    if size is None:
        size = max(50, min(5000, games // max(1, jobs * 16) or 1))
    for start in range(0, games, size):
        yield start, min(games, start + size)
