"""The balance lab's SF Rivals adapter: characters, cards played per round, fast rollouts."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kumite.core.game import Game, Outcome, State
from kumite.games.sfrivals.cards import Catalog
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.rollout import random_rollout
from kumite.games.sfrivals.spec import SPEC
from kumite.games.sfrivals.state import SFRState
from kumite.sim.adapters import Adapter, BatchGames, CardPlay, GameSummary


class SFRivalsAdapter(Adapter):
    turn = "round"
    cards_per_entity = True
    has_fast_random = True
    has_batch_random = True

    def card_names(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        return {c.id: c.name for c in GAME.catalog(options).cards.values()}

    def card_owners(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        return {c.id: c.character for c in GAME.catalog(options).cards.values()}

    def card_labels(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        catalog = GAME.catalog(options)
        chars = catalog.characters
        return {c.id: f"{chars[c.character].name}: {c.name}" for c in catalog.cards.values()}

    def summarize(self, state: State, outcome: Outcome) -> GameSummary:
        assert isinstance(state, SFRState)
        plays = tuple(
            CardPlay(seat, card.id, rnd)
            for seat in (0, 1)
            for rnd, card in enumerate(state.played[seat], start=1)
        )
        length = int(outcome.detail.get("rounds", state.round - 1))
        entities = [c.id if c is not None else None for c in state.chars]
        return GameSummary.of(outcome, length, entities, plays)

    def prepare(self, game: Game[Any], options: Mapping[str, Any]) -> tuple[Options, Catalog]:
        opts = GAME.parse_options(options)
        return opts, GAME.catalog(opts)

    def fast_random(
        self, game: Game[Any], prepared: Any, rngs: Sequence[random.Random]
    ) -> GameSummary:
        opts, catalog = prepared
        r = random_rollout(catalog, opts, (rngs[0], rngs[1]))
        a, b = r.played
        plays = [(0, card, rnd, "played") for rnd, card in enumerate(a, 1)]
        plays += [(1, card, rnd, "played") for rnd, card in enumerate(b, 1)]
        return GameSummary(
            winners=() if r.winner is None else (r.winner,),
            draw=r.winner is None,
            reason=r.reason,
            length=r.rounds,
            entities=r.characters,
            plays=plays,
        )

    def batch_random(
        self, game: Game[Any], prepared: Any, seeds: Sequence[int]
    ) -> list[GameSummary]:
        from kumite.games.sfrivals.batch import REASONS, engine_for

        opts, _ = prepared
        engine = engine_for(game, opts)
        fights = engine.random_fights(seeds, opts.characters)
        ids = [c.id for c in engine.characters]
        cards = [[c.id for c in char.cards] for char in engine.characters]
        out = []
        for i in range(len(fights)):
            chars = (int(fights.characters[i, 0]), int(fights.characters[i, 1]))
            rounds = int(fights.rounds[i])
            plays = [
                (s, cards[chars[s]][int(fights.played[i, s, r])], r + 1, "played")
                for s in (0, 1)
                for r in range(rounds)
            ]
            winner = int(fights.winner[i])
            out.append(
                GameSummary(
                    winners=() if winner < 0 else (winner,),
                    draw=winner < 0,
                    reason=REASONS[int(fights.reason[i])],
                    length=rounds,
                    entities=(ids[chars[0]], ids[chars[1]]),
                    plays=plays,
                )
            )
        return out

    def batch_games(
        self, game: Game[Any], prepared: Any, seeds: Any, entities: Any, ids: Sequence[str]
    ) -> BatchGames:
        import numpy as np

        from kumite.games.sfrivals.batch import REASONS, engine_for
        from kumite.games.sfrivals.cards import HAND

        opts, _ = prepared
        engine = engine_for(game, opts)
        chars = engine.characters
        slots = max(len(c.cards) for c in chars)
        n = len(seeds)
        characters = np.empty((n, 2), dtype=np.int64)
        played = np.empty((n, 2, HAND), dtype=np.int8)
        winner = np.empty(n, dtype=np.int8)
        rounds = np.empty(n, dtype=np.int64)
        reason = np.empty(n, dtype=np.int8)
        if entities is None:
            groups = [(np.arange(n), opts.characters)]
        else:
            to_engine = np.array([engine.index[i] for i in ids], dtype=np.int64)
            ent = to_engine[entities]
            code = (ent[:, 0] * len(chars) + ent[:, 1]).astype(np.int16)  # radix-sorted
            order = np.argsort(code, kind="stable")
            cuts = np.flatnonzero(np.diff(code[order])) + 1
            groups = []
            for part in np.split(order, cuts):
                if len(part):
                    a, b = divmod(int(code[part[0]]), len(chars))
                    groups.append((part, (chars[a].id, chars[b].id)))
        # One call per pairing: the engine plays many fights of one pairing best, and a
        # chunk of the balanced design holds thousands of each.
        for part, pair in groups:
            fights = engine.random_fights(seeds[part], pair)
            characters[part] = fights.characters
            played[part] = fights.played
            winner[part] = fights.winner
            rounds[part] = fights.rounds
            reason[part] = fights.reason
        card_ids = [
            c.cards[j].id if j < len(c.cards) else f"{c.id}.{j}"
            for c in chars
            for j in range(slots)
        ]
        return BatchGames(
            [c.id for c in chars], characters, winner, reason, REASONS, rounds, played, card_ids,
            slots,
        )  # fmt: skip

    def batch_warm(self, game: Game[Any], prepared: Any) -> None:
        import numpy as np

        from kumite.games.sfrivals.batch import engine_for

        opts, _ = prepared
        engine = engine_for(game, opts)
        count = len(engine.characters)
        pairings = np.arange(count * count, dtype=np.int64)
        engine.rule_tables(pairings)
        engine.first_keys(np.array([[0, 0]], dtype=np.int64), np.array([[0, 0]], dtype=np.int64))
        engine._start_consts(pairings)
        engine.random_fights(np.arange(2, dtype=np.int64))  # compiles (or loads) the kernels


ADAPTER = SFRivalsAdapter(SPEC)
