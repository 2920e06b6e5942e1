"""The SF Rivals game object: metadata, options and the initial state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from kumite.core.errors import KumiteError, OptionsError
from kumite.core.game import Game, GameInfo
from kumite.games.sfrivals.cards import Catalog, load_catalog
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.rules import RULES, card_rule
from kumite.games.sfrivals.state import NUM_ACTIONS, SFRState

RULES_VERSION = "sfrivals-1"


class SFRivals(Game[Options]):
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

    def parse_options(self, raw: Mapping[str, Any] | None) -> Options:
        if not raw:
            return _DEFAULT
        options: Options
        if isinstance(raw, Options):
            options = raw
        else:
            try:
                options = msgspec.convert(dict(raw), Options)
            except msgspec.ValidationError as exc:
                raise OptionsError(f"sfrivals options: {exc}") from None
        catalog = self.catalog(options)
        if options.characters is not None:
            for char_id in options.characters:
                if char_id is not None and char_id not in catalog.characters:
                    known = ", ".join(catalog.characters)
                    raise OptionsError(f"unknown character {char_id!r} (one of: {known})")
        return options

    def catalog(self, options: Options | None = None) -> Catalog:
        """The cards in use: the base pack, or the base merged with the options' overlay."""
        overlay = None if options is None else options.pack
        try:
            return load_catalog(overlay)
        except KumiteError:
            raise
        except Exception as exc:  # pragma: no cover - defensive
            raise OptionsError(f"pack: {exc}") from None

    def new_state(self, seed: int = 0, options: Mapping[str, Any] | None = None) -> SFRState:
        opts = self.parse_options(options)
        return SFRState(self, seed, opts, self.catalog(opts))

    @property
    def rules(self) -> Mapping[str, str]:
        index = dict(RULES)
        for card in self.catalog().cards.values():
            index[card_rule(card.id)] = f"{card.name}: {card.text or 'no special power.'}"
        return index

    def pack_ref(self, options: Options) -> dict[str, str]:
        return self.catalog(options).pack.ref()


_DEFAULT = Options()
GAME = SFRivals()
