"""The SF Rivals game object: metadata, options and the initial state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.cards.game import PackGame
from kumite.core.errors import OptionsError
from kumite.core.game import GameInfo
from kumite.core.rng import Rng
from kumite.games.sfrivals.cards import PACKS, Catalog
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.rules import RULES, card_rule
from kumite.games.sfrivals.state import NUM_ACTIONS, SFRState

RULES_VERSION = "sfrivals-1"


class SFRivals(PackGame[Options, Catalog]):
    """Street Fighter Rivals: two players, simultaneous reveals, eight rounds."""

    info = GameInfo(
        id="sfrivals",
        name="Street Fighter Rivals",
        min_players=2,
        max_players=2,
        simultaneous=True,
        hidden_information=True,
        chance=False,
        max_decisions=2 + 8 * 2,
        utility_range=(-1.0, 1.0),
        rules_version=RULES_VERSION,
        num_actions=NUM_ACTIONS,
    )

    options_type = Options
    packs = PACKS

    def check(self, options: Options) -> None:
        catalog = self.catalog(options)  # a bad overlay pack fails here
        if options.characters is not None:
            for char_id in options.characters:
                if char_id is not None and char_id not in catalog.characters:
                    known = ", ".join(catalog.characters)
                    raise OptionsError(f"unknown character {char_id!r} (one of: {known})")

    def new_state(
        self, seed: int = 0, options: Mapping[str, Any] | None = None, *, rng: Rng | None = None
    ) -> SFRState:
        opts = self.parse_options(options)
        return SFRState(self, seed, opts, self.catalog(opts))

    @property
    def rules(self) -> Mapping[str, str]:
        index = dict(RULES)
        for card in self.catalog().cards.values():
            index[card_rule(card.id)] = f"{card.name}: {card.text or 'no special power.'}"
        return index


GAME = SFRivals()
