"""``greedy``'s lookahead across many packs (a balance search plays hundreds in one worker).

The pack loader keeps the last 32 catalogs; a pack loaded again after leaving that cache is
a new catalog of new cards, and cards compare by identity. The lookahead keeps fresh fights
by their options: one kept from before the pack was loaded again held the old cards, the bot
passed its new ones, and ``phases.on_play`` raised ``list.remove(x): x not in list`` (seen
in ``kumite balance rivales``). And over random card values within the pack's ranges, every
fight of ``greedy`` and of random bots ends.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kumite.agents import make_agent, run_game
from kumite.core.game import Decision
from kumite.games.rivales.bots.greedy import GreedyRivales
from kumite.games.rivales.cards import load_catalog
from kumite.games.rivales.game import GAME

FIGHTERS = ["zorro", "curie", "mulan", "darwin", "hansel-gretel", "sombrerero"]


def overlay(tag: str, fighters: dict[str, dict[str, int]], cards: dict[str, dict[str, int]]) -> str:
    lines = [
        "[pack]",
        f'id = "{tag}"',
        'base = "rivales-base"',
        'game = "rivales"',
        'version = "1"',
        'title = "test"',
    ]
    for kind, entries in (("fighters", fighters), ("cards", cards)):
        for eid, values in entries.items():
            lines += ["", f"[[{kind}]]", f'id = "{eid}"']
            lines += [f"{k} = {v}" for k, v in values.items()]
    return "\n".join(lines) + "\n"


def play_greedy(options: dict[str, object], seed: int) -> None:
    """A greedy fight whose bots take their catalog as ``make`` does, now."""
    state = GAME.new_state(seed, options)
    bots = [GreedyRivales(GAME.catalog(options), options, s, seed + s) for s in range(2)]
    while not state.is_terminal:
        pending: tuple[Decision, ...] = state.pending()
        state.apply({d.seat: bots[d.seat].choose(state.view(d.seat), d) for d in pending})


def test_greedy_lookahead_after_its_pack_left_the_catalog_cache_and_came_back() -> None:
    text = overlay("again", {"zorro": {"life": 10}}, {})
    options: dict[str, object] = {"pack": text, "fighters": ["zorro", "curie"]}
    play_greedy(options, 1)  # the lookahead keeps a fresh fight of this pack's catalog
    first = GAME.catalog(options)
    for i in range(40):  # other packs push it out of the loader's cache
        GAME.catalog({"pack": overlay(f"other{i}", {"curie": {"life": 9 + i % 3}}, {})})
    assert GAME.catalog(options) is not first  # loaded again: new cards
    play_greedy(options, 2)  # raised ValueError in phases.on_play before the fix


CARD_IDS = [c.id for c in GAME.catalog({}).cards.values() if not c.id.startswith("basic.")]
CARD_VALUES = st.fixed_dictionaries(
    {"speed": st.integers(0, 9), "damage": st.integers(0, 6), "guard": st.integers(0, 4)}
)
PACKS = st.tuples(
    st.dictionaries(
        st.sampled_from(FIGHTERS),
        st.integers(5, 14).flatmap(
            lambda life: st.fixed_dictionaries(
                {"life": st.just(life), "ultra_at": st.integers(1, life - 1)}
            )
        ),
        max_size=3,
    ),
    st.dictionaries(st.sampled_from(CARD_IDS), CARD_VALUES, max_size=8),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pack=PACKS,
    pair=st.permutations(FIGHTERS).map(lambda p: p[:2]),
    seed=st.integers(0, 2**31),
)
def test_fights_end_with_any_card_values_in_range(
    pack: tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]],
    pair: list[str],
    seed: int,
) -> None:
    options = {"pack": overlay("values", *pack), "fighters": list(pair)}
    for agent in ("greedy", "random"):
        players = [make_agent(agent, GAME, options, seat=s, seed=seed + s) for s in (0, 1)]
        state = GAME.new_state(seed, options)
        run_game(state, players)
        assert state.is_terminal


def test_the_base_catalog_is_kept_for_good_while_overlays_come_and_go():
    """A balance search loads hundreds of overlays in one process: the base catalog (the one
    every default game holds) stays the same object however many pass through the cache."""
    base = load_catalog()
    assert load_catalog(None, "another name") is base
    first = load_catalog('[pack]\nid = "o0"\nbase = "rivales-base"\ngame = "rivales"\n', "o0")
    for i in range(1, 40):
        load_catalog(f'[pack]\nid = "o{i}"\nbase = "rivales-base"\ngame = "rivales"\n', f"o{i}")
    assert load_catalog() is base
    again = load_catalog('[pack]\nid = "o0"\nbase = "rivales-base"\ngame = "rivales"\n', "o0")
    assert again is not first  # an overlay left the cache: a new catalog, as documented
