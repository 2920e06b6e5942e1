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

        opts, _ = prepared
        engine = engine_for(game, opts)
        chars = engine.characters
        slots = max(len(c.cards) for c in chars)
        if entities is None:
            fights = engine.random_fights(seeds, opts.characters)
        else:
            # every pairing in one call: the engine sorts the fights by pairing itself
            to_engine = np.array([engine.index[i] for i in ids], dtype=np.int64)
            fights = engine.random_fights(seeds, pairs=to_engine[entities])
        card_ids = [
            c.cards[j].id if j < len(c.cards) else f"{c.id}.{j}"
            for c in chars
            for j in range(slots)
        ]
        return BatchGames(
            [c.id for c in chars], fights.characters, fights.winner, fights.reason, REASONS,
            fights.rounds, fights.played, card_ids, slots,
        )  # fmt: skip

    def batch_warm(self, game: Game[Any], prepared: Any) -> None:
        """Every pairing's rule tables (from the disk cache once filled: batch.py) and the
        compiled kernels (from Numba's cache once compiled)."""
        import numpy as np

        from kumite.games.sfrivals.batch import engine_for

        opts, _ = prepared
        engine = engine_for(game, opts)
        engine.warm()
        engine.random_fights(np.arange(2, dtype=np.int64))  # compiles (or loads) the kernels


ADAPTER = SFRivalsAdapter(SPEC)
