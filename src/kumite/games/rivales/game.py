"""The Rivales game object: metadata, options and the initial state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.cards.game import PackGame
from kumite.core.errors import OptionsError
from kumite.core.game import GameInfo
from kumite.core.memo import Memo
from kumite.core.rng import Rng
from kumite.games.rivales.actions import NUM_ACTIONS
from kumite.games.rivales.cards import PACKS, Catalog
from kumite.games.rivales.options import Options
from kumite.games.rivales.rules import RULES, card_rule, fighter_rule
from kumite.games.rivales.state import RivalesState

RULES_VERSION = "rivales-1"
#: Decisions per clash at most: zones 1, play 1, persona 1, zone order 1, boosts 2 per zone,
#: effects 2 per zone, guard 1 per zone; rounds: 3 + final rounds (option, at most 10).
_PER_CLASH = 4 + 5 * 2


class Rivales(PackGame[Options, Catalog]):
    """Rivales: Capítulo 1 – Justicia — 1vs1 duels and the official 2vs2 team mode."""

    info = GameInfo(
        id="rivales",
        name="Rivales: Capítulo 1 – Justicia",
        min_players=2,
        max_players=4,
        simultaneous=True,
        hidden_information=True,
        chance=True,
        max_decisions=4 + 13 * (1 + 7 * _PER_CLASH),
        utility_range=(-1.0, 1.0),
        rules_version=RULES_VERSION,
        num_actions=NUM_ACTIONS,
    )

    options_type = Options
    packs = PACKS

    def parse_options(self, raw: Mapping[str, Any] | None) -> Options:
        if not raw:
            return self.default_options
        key = _cache_key(raw)
        if key is not None:
            known = _PARSED.get(key)
            if known is not None:
                return known
        options = super().parse_options(raw)
        if key is not None:
            _PARSED.put(key, options)
        return options

    def check(self, options: Options) -> None:
        if not 1 <= options.final_round_limit <= 10:
            raise OptionsError("rivales options: final_round_limit must be 1..10")
        catalog = self.catalog(options)
        seats = 4 if options.mode == "2v2" else 2
        if options.fighters is not None:
            if len(options.fighters) != seats:
                raise OptionsError(
                    f"rivales {options.mode} needs {seats} fighters (one per seat), "
                    f"got {len(options.fighters)}"
                )
            for fid in options.fighters:
                if fid is not None and fid not in catalog.fighters:
                    known = ", ".join(catalog.fighters)
                    raise OptionsError(f"unknown fighter {fid!r} (one of: {known})")
            if seats == 4:
                for a, b in ((0, 1), (2, 3)):
                    fa, fb = options.fighters[a], options.fighters[b]
                    if fa is not None and fa == fb:
                        raise OptionsError(
                            f"teammates must choose different fighters (seats {a + 1} and "
                            f"{b + 1} both chose {fa!r}: rv.2v2.different-fighters)"
                        )

    def new_state(
        self, seed: int = 0, options: Mapping[str, Any] | None = None, *, rng: Rng | None = None
    ) -> RivalesState:
        opts = self.parse_options(options)
        return RivalesState(self, seed, opts, self.catalog(opts), rng)

    def max_chance_outcomes(self, options: Options) -> int:
        # The only draw is a round's shuffle of a fighter's deck (rv.setup).
        return max(len(f.deck) for f in self.catalog(options).fighters.values())

    @property
    def rules(self) -> Mapping[str, str]:
        index = dict(RULES)
        catalog = self.catalog()
        for fighter in catalog.fighters.values():
            index[fighter_rule(fighter.id)] = (
                f"{fighter.name} — {fighter.passive_name}: {fighter.passive}"
            )
        for card in catalog.cards.values():
            index[card_rule(card.id)] = f"{card.name}: {card.text or 'no effect.'}"
        return index


_PARSED: Memo[tuple[tuple[str, Any], ...], Options] = Memo(256)
"""Options already parsed and validated, by their raw form (simulations create many states
with the same options)."""


def _cache_key(raw: Mapping[str, Any]) -> tuple[tuple[str, Any], ...] | None:
    """A key for simple raw options (a plain dict of str, int or None values), else None.
    Exact types only: ``True == 1`` must not find options parsed from ``1``."""
    if type(raw) is not dict:
        return None
    for k, v in raw.items():
        if type(k) is not str or (v is not None and type(v) is not str and type(v) is not int):
            return None
    return tuple(sorted(raw.items()))


GAME = Rivales()
