"""The Rivales adapter: fighter matchups (mirrors allowed) and the cards each seat played."""

from __future__ import annotations

from kumite.games.rivales.game import GAME
from kumite.sim.adapters import adapter_for
from kumite.sim.analysis import analyze
from kumite.sim.backends import simulate
from kumite.sim.engine import Runner, SimSpec

LINEUP = (("random", "random"),)


def test_fighters_are_fixed_in_the_options_for_one_vs_one():
    runner = Runner(SimSpec("rivales", LINEUP, 0, seed=1))
    assert runner.balanced
    for i in range(8):
        _agents, fighters = runner.assignment(i)
        assert fighters is not None
        options, _ = runner.options(2, fighters)
        state = GAME.new_state(1, options)
        assert [f.id for f in state.fighters] == list(fighters)


def test_fighter_ratings_and_card_impact_by_clash():
    result = simulate(SimSpec("rivales", LINEUP, 24, seed=7))
    tally = result.tally
    assert sum(c[0] for c in tally.counts("entities").values()) == 24 * 2
    assert {v for (_s, v, _c) in tally.counts("cards")} == {"played"}
    a = analyze(tally, entity="fighter", turn="clash")
    assert a["entities"]["ratings"]
    assert all(r["when"] >= 1 for r in a["cards"]["by_when"])


def test_card_labels_name_the_fighter_except_for_shared_basics():
    labels = adapter_for("rivales").card_labels(GAME, {})
    assert labels["basic.golpe"] == GAME.catalog().cards["basic.golpe"].name
    assert labels["zorro.latigazo"].startswith("Zorro: ")


def test_two_vs_two_designs_keep_teammates_apart():
    runner = Runner(SimSpec("rivales", (("random",) * 4,), 0, seed=2, options={"mode": "2v2"}))
    assert runner.balanced
    for i in range(30):
        _agents, fighters = runner.assignment(i)
        assert fighters is not None
        assert fighters[0] != fighters[1] and fighters[2] != fighters[3]
        options, _ = runner.options(4, fighters)
        GAME.new_state(1, options)  # valid options


def test_numbers_inside_a_cards_effects_are_knobs_where_its_text_says_them_once():
    """kumite balance --vary 'ID:effects.*.KEY': a Rivales card's reconstructed text says each
    number its effects hold (``+1 Damage``, ``(at most +2)``, ``2 or more energy cards``)."""
    from kumite.sim.balance import knobs_of, pack_of

    fighters = list(GAME.catalog().fighters)
    paths = "effects.**.amount,effects.**.max,effects.**.every,effects.**.min_energy"
    knobs = {
        k.key: k
        for k in knobs_of(
            pack_of("rivales"), [f"*.*:{paths}"], fighters, adapter=adapter_for("rivales")
        )
    }
    assert {
        "curie.isotopos.effects.0.max",
        "curie.polonio.effects.0.requires.min_energy",
        "darwin.supervivencia.effects.0.every",
        "hansel-gretel.guardia.effects.0.amount",
        "zorro.latigazo.effects.1.amount",
    } <= set(knobs)
    isotopos = knobs["curie.isotopos.effects.0.max"]
    assert (isotopos.base, isotopos.owner, isotopos.text) == (2, "curie", "text")
    # Radio says its refresh as "one of your exhausted cards": no phrase of a number, not moved
    assert not any(k.startswith("curie.radio.") for k in knobs)
    assert not any(k.startswith("basic.") for k in knobs)  # the basic cards state no number


def test_a_moved_number_inside_effects_is_written_with_its_text_said_anew():
    from kumite.games.rivales.cards import PACKS
    from kumite.sim.balance import knobs_of, overlay_text, pack_of

    adapter = adapter_for("rivales")
    pack = pack_of("rivales")
    fighters = list(GAME.catalog().fighters)
    knobs = {
        k.key: k
        for k in knobs_of(
            pack,
            [
                "curie.*:effects.*.max,effects.*.requires.min_energy",
                "zorro.latigazo:effects.*.amount",
            ],
            fighters,
            adapter=adapter,
        )
    }
    moved = [
        (knobs["curie.isotopos.effects.0.max"], 1),
        (knobs["curie.polonio.effects.0.requires.min_energy"], 3),
        (knobs["zorro.latigazo.effects.1.amount"], 2),
    ]
    catalog = PACKS.load(overlay_text(pack, moved, "mine", note="t", adapter=adapter), "mine")
    isotopos, polonio = catalog.cards["curie.isotopos"], catalog.cards["curie.polonio"]
    latigazo = catalog.cards["zorro.latigazo"]
    assert isotopos.effects[0].max == 1 and "(at most +1)" in isotopos.text
    assert polonio.effects[0].requires.min_energy == 3
    assert "you have 3 or more energy cards. +1 Damage." in polonio.text
    assert [e.amount for e in latigazo.effects] == [1, 2]
    assert "+1 Speed and +2 Damage" in latigazo.text
    assert str(isotopos.provenance["text"]) == "reconstructed"


def test_a_number_the_text_says_twice_or_not_at_all_is_not_moved():
    adapter = adapter_for("rivales")
    bonus = {"op": "bonus", "stat": "damage", "amount": 1}
    assert adapter.wording("+1 Damage. Then +1 Damage.", bonus, "amount") is None
    assert adapter.wording("+1 Speed.", bonus, "amount") is None  # not this stat's phrase
    found = adapter.wording("⚡ +1 Damage (at most +2).", {**bonus, "max": 2}, "max")
    assert found is not None
    start, end, say = found
    assert "⚡ +1 Damage (at most +2)."[start:end] == "+2" and say(3) == "+3" and say(0) is None
