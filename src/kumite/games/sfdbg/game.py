"""The SF DBG game object: metadata, options and the initial state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.cards.game import PackGame
from kumite.core.errors import OptionsError
from kumite.core.game import GameInfo
from kumite.core.rng import Rng
from kumite.games.sfdbg.actions import vocabulary
from kumite.games.sfdbg.cards import PACKS, Catalog, load_catalog
from kumite.games.sfdbg.options import Options
from kumite.games.sfdbg.rules import RULES, card_rule, hero_rule
from kumite.games.sfdbg.state import SFDBGState

RULES_VERSION = "sfdbg-1"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
#: Decisions in one turn are bounded by the cards that can move in it (well under 2000).
MAX_DECISIONS_PER_TURN = 2000
#: The most full rounds option ``round_limit`` may ask for (``sfdbg.ruling.round-limit``):
#: the default is 60, far beyond a real game; a bigger number only lets a stalled game run on.
MAX_ROUND_LIMIT = 1000


class SFDBG(PackGame[Options, Catalog]):
    """The Street Fighter Deck-Building Game (Cryptozoic, 2014) for 2 to 5 players."""

    info = GameInfo(
        id="sfdbg",
        name="Street Fighter Deck-Building Game",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        simultaneous=False,
        hidden_information=True,
        chance=True,
        max_decisions=MAX_PLAYERS * Options().round_limit * MAX_DECISIONS_PER_TURN,
        utility_range=(-1.0, 1.0),
        rules_version=RULES_VERSION,
        num_actions=len(vocabulary(load_catalog()).choices),
    )

    options_type = Options
    packs = PACKS

    def check(self, options: Options) -> None:
        n = options.players
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise OptionsError(f"the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
        if not 1 <= options.round_limit <= MAX_ROUND_LIMIT:
            raise OptionsError(f"round_limit must be at least 1 and at most {MAX_ROUND_LIMIT}")
        if options.first_player is not None and not 0 <= options.first_player < n:
            raise OptionsError(f"first_player must be a seat from 0 to {n - 1}")
        catalog = self.catalog(options)
        if options.heroes is not None:
            if options.variant == "secret-heroes":
                raise OptionsError("Secret Heroes deals every Super Hero face down: no --heroes")
            if len(options.heroes) != n:
                raise OptionsError(
                    f"--heroes needs one Super Hero per seat ({n}), use - for random"
                )
            chosen = [h for h in options.heroes if h is not None]
            for hero in chosen:
                if hero not in catalog.hero_by_id:
                    known = ", ".join(catalog.hero_by_id)
                    raise OptionsError(f"unknown Super Hero {hero!r} (one of: {known})")
            if len(set(chosen)) != len(chosen):
                raise OptionsError("each Super Hero can be played by only one player")

    def new_state(
        self, seed: int = 0, options: Mapping[str, Any] | None = None, *, rng: Rng | None = None
    ) -> SFDBGState:
        opts = self.parse_options(options)
        return SFDBGState(self, seed, opts, self.catalog(opts), rng=rng)

    def max_chance_outcomes(self, options: Options) -> int:
        # Draws pick the first player or shuffle Super Heroes or physical cards.
        catalog = self.catalog(options)
        return max(MAX_PLAYERS, len(catalog.heroes), sum(c.copies for c in catalog.cards))

    @property
    def rules(self) -> Mapping[str, str]:
        index = dict(RULES)
        catalog = self.catalog()
        for card in catalog.cards:
            index[card_rule(card.id)] = f"{card.name}: {card.text}"
        for hero in catalog.heroes:
            index[hero_rule(hero.id)] = f"{hero.name}: {hero.counter_text}"
        return index


GAME = SFDBG()
