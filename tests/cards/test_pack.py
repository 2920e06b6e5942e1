"""Card packs (DESIGN §3): provenance per value, overlays, errors naming file/card/field."""

from __future__ import annotations

import importlib

import pytest

from kumite.cards import PackData, Provenance, merge, parse_toml, read_pack, split_values
from kumite.core.errors import PackError

BASE = """
[pack]
id = "base"
game = "g"
version = "1"
[pack.provenance]
power = "rulebook"
cost = "estimate"
[sources]
X = "a source"
[[cards]]
id = "a"
power = 3
cost = { value = 2, from = "source:X", note = "seen" }
[[cards]]
id = "b"
power = 1
cost = 1
"""


def test_provenance_labels_parse_and_mark():
    assert Provenance.parse("rulebook").mark == ""
    assert Provenance.parse("estimate").mark == "*"
    assert Provenance.parse("reconstructed").mark == "†"
    src = Provenance.parse("source:TF", "note")
    assert (src.label, src.ref, str(src)) == ("source", "TF", "source:TF")
    with pytest.raises(ValueError, match="unknown provenance"):
        Provenance.parse("guess")
    with pytest.raises(ValueError, match="must name its key"):
        Provenance.parse("source")


def test_values_are_split_from_their_provenance():
    pack = parse_toml(BASE, "base.toml")
    card = pack.data["cards"][0]
    values, prov = split_values(
        card, pack="base.toml", card="a", valued=("power", "cost"), defaults=pack.meta["provenance"]
    )
    assert values == {"id": "a", "power": 3, "cost": 2}
    assert str(prov["power"]) == "rulebook"
    assert str(prov["cost"]) == "source:X" and prov["cost"].note == "seen"


def test_missing_provenance_is_an_error_naming_card_and_field():
    pack = parse_toml(BASE, "base.toml")
    with pytest.raises(PackError) as info:
        split_values(
            pack.data["cards"][1],
            pack="base.toml",
            card="b",
            valued=("power", "cost", "speed"),
            defaults={},
        )
    assert str(info.value) == (
        "base.toml: card 'b': field 'power': no provenance: add 'from' or a "
        "[pack.provenance] default"
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[pack\nid=1", "bad.toml: invalid TOML"),
        ("[other]\nx=1", "bad.toml: missing [pack] table"),
        ('[pack]\nid="p"', "bad.toml: [pack] needs a string 'game'"),
        ('cards = 3\n[pack]\nid="p"\ngame="g"', "'cards' must be an array of tables"),
        ('[pack]\nid="p"\ngame="g"\n[[cards]]\nname="x"', "cards entry #1 has no string 'id'"),
        (
            '[pack]\nid="p"\ngame="g"\n[[cards]]\nid="x"\n[[cards]]\nid="x"',
            "card 'x': duplicate id in cards",
        ),
    ],
)
def test_malformed_packs_fail_with_one_line_naming_the_problem(text, words):
    with pytest.raises(PackError) as info:
        parse_toml(text, "bad.toml")
    assert words in str(info.value)


def test_unreadable_pack_file(tmp_path):
    with pytest.raises(PackError, match="cannot read"):
        read_pack(tmp_path / "nope.toml")
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PackError, match="not UTF-8"):
        read_pack(binary)


def test_overlay_replaces_values_and_records_their_provenance():
    base = parse_toml(BASE, "base.toml")
    overlay = parse_toml(
        '[pack]\nid="mine"\ngame="g"\nbase="base"\n[[cards]]\nid="b"\ncost=5\n'
        '[[cards]]\nid="c"\npower=9\ncost=0\n',
        "mine.toml",
    )
    merged = merge(base, overlay, valued=("power", "cost"))
    cards = {c["id"]: c for c in merged.data["cards"]}
    assert cards["b"]["cost"] == {"value": 5, "from": "source:mine"}
    assert cards["b"]["power"] == 1  # untouched field keeps the base value
    assert cards["c"]["power"] == {"value": 9, "from": "source:mine"}
    assert merged.data["pack"]["overlays"] == ["mine"]
    assert merged.sha256() != base.sha256()


def test_overlay_for_another_game_or_base_is_refused():
    base = parse_toml(BASE, "base.toml")
    with pytest.raises(PackError, match="pack is for game 'h'"):
        merge(base, parse_toml('[pack]\nid="o"\ngame="h"', "o.toml"))
    with pytest.raises(PackError, match="overlay is for base pack 'zzz'"):
        merge(base, parse_toml('[pack]\nid="o"\ngame="g"\nbase="zzz"', "o.toml"))


def test_pack_identity():
    pack = parse_toml(BASE, "base.toml")
    assert isinstance(pack, PackData)
    ref = pack.ref()
    assert ref["id"] == "base" and ref["version"] == "1" and len(ref["sha256"]) == 64


OVERLAY = '[pack]\nid="mine"\ngame="g"\nbase="base"\n[sources]\nMY="my own box"\n'


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ('[[cards]]\nid="a"\ncost={ value = 4, from = "source:NOPE" }\n', "card 'a': field 'cost'"),
        ('[rules]\nlife={ value = 9, from = "source:NOPE" }\n', "field 'rules.life'"),
        ('[pack.provenance]\ncost="source:NOPE"\n', "field 'pack.provenance.cost'"),
    ],
)
def test_overlay_citing_an_unknown_source_key_is_refused_naming_file_and_field(body, where):
    base = parse_toml(BASE, "base.toml")
    head, _, rest = OVERLAY.partition("[sources]")
    if body.startswith("[pack.provenance]"):  # a sub-table of [pack] goes before [sources]
        text = head + body + "[sources]" + rest
    else:
        text = OVERLAY + body
    with pytest.raises(PackError) as info:
        merge(base, parse_toml(text, "mine.toml"), valued=("power", "cost"))
    message = str(info.value)
    assert message.startswith(f"mine.toml: {where}: unknown source key 'NOPE'")
    assert "MY" in message and "X" in message  # it lists the keys that may be cited
    assert "\n" not in message


def test_overlay_may_cite_its_own_sources_its_bases_and_itself():
    base = parse_toml(BASE, "base.toml")
    overlay = parse_toml(
        OVERLAY + '[[cards]]\nid="a"\ncost={ value = 4, from = "source:MY" }\n'
        '[[cards]]\nid="b"\ncost={ value = 5, from = "source:X" }\n'
        'power={ value = 6, from = "source:mine" }\n',
        "mine.toml",
    )
    merged = merge(base, overlay, valued=("power", "cost"))
    cards = {c["id"]: c for c in merged.data["cards"]}
    assert cards["a"]["cost"]["from"] == "source:MY"
    assert cards["b"]["cost"]["from"] == "source:X"
    assert cards["b"]["power"]["from"] == "source:mine"


def test_overlay_entry_with_a_typo_id_says_it_does_not_exist_and_names_the_closest():
    import msgspec

    class Card(msgspec.Struct):
        id: str
        power: int
        cost: int

    base = parse_toml(BASE.replace('id = "a"', 'id = "hadouken"'), "base.toml")
    overlay = parse_toml(OVERLAY + '[[cards]]\nid="hadoken"\ncost=3\n', "mine.toml")
    with pytest.raises(PackError) as info:
        merge(base, overlay, valued=("power", "cost"), schemas={"cards": Card})
    assert str(info.value) == (
        "mine.toml: card 'hadoken' does not exist in base pack 'base'; did you mean "
        "'hadouken'? (a new card needs power)"
    )
    # a complete new entry is a new card, not a typo
    complete = parse_toml(OVERLAY + '[[cards]]\nid="hadoken"\ncost=3\npower=1\n', "mine.toml")
    merged = merge(base, complete, valued=("power", "cost"), schemas={"cards": Card})
    assert [c["id"] for c in merged.data["cards"]] == ["hadouken", "b", "hadoken"]


def _base_packs() -> list[PackData]:
    from kumite.games.rivales.cards import base_pack as rivales
    from kumite.games.sfdbg.cards import base_pack as sfdbg
    from kumite.games.sfrivals.cards import base_pack as sfrivals

    return [sfrivals(), rivales(), sfdbg()]


@pytest.mark.parametrize("pack", _base_packs(), ids=lambda p: p.id)
def test_every_shipped_pack_cites_only_sources_it_lists(pack):
    from kumite.cards import check_sources

    check_sources(pack, pack.sources)  # raises on an unlisted key


# One typo'd id per game and keyed list: each overlay says the entry does not exist.
TYPOS = [
    ("sfrivals", "sfrivals-base", "cards", "ryu.hadoken", "damage=2", "'ryu.hadouken'"),
    ("sfrivals", "sfrivals-base", "characters", "ryuu", 'name="Ryu"', None),
    ("rivales", "rivales-base", "cards", "zorro.latigaso", "damage=3", "'zorro.latigazo'"),
    ("rivales", "rivales-base", "fighters", "zoro", "life=9", "'zorro'"),
    ("sfdbg", "sfdbg-base", "cards", "rolling-thunda", "cost=3", "'rolling-thunder'"),
    ("sfdbg", "sfdbg-base", "heroes", "akumaa", 'name="Akuma"', "'akuma'"),
]


@pytest.mark.parametrize(("game", "base", "key", "ident", "field", "closest"), TYPOS)
def test_each_games_overlay_with_a_typo_id_names_the_closest_ids(
    tmp_path, game, base, key, ident, field, closest
):
    from kumite.core.registry import get_game

    loader = importlib.import_module(f"kumite.games.{game}.cards")
    path = tmp_path / "mine.toml"
    path.write_text(
        f'[pack]\nid="mine"\ngame="{game}"\nbase="{base}"\n[[{key}]]\nid="{ident}"\n{field}\n'
    )
    assert get_game(game).info.id == game
    if closest is None:  # a complete new character: it fails later, for having no cards
        with pytest.raises(PackError, match="has 0 cards"):
            loader.read_overlay(path)
        return
    with pytest.raises(PackError) as info:
        loader.read_overlay(path)
    message = str(info.value)
    assert message.startswith(f"mine.toml: {key[:-1] if key != 'heroes' else 'hero'} '{ident}'")
    assert "does not exist in base pack" in message
    assert closest in message
    assert "missing required field" not in message


@pytest.mark.parametrize(
    ("game", "base", "key", "ident", "field"),
    [
        ("sfrivals", "sfrivals-base", "cards", "ryu.hadouken", "damage"),
        ("rivales", "rivales-base", "cards", "zorro.latigazo", "damage"),
        ("sfdbg", "sfdbg-base", "cards", "rolling-thunder", "cost"),
    ],
)
def test_each_games_overlay_citing_source_nope_is_refused(tmp_path, game, base, key, ident, field):
    loader = importlib.import_module(f"kumite.games.{game}.cards")
    path = tmp_path / "mine.toml"
    path.write_text(
        f'[pack]\nid="mine"\ngame="{game}"\nbase="{base}"\n[[{key}]]\nid="{ident}"\n'
        f'{field} = {{ value = 3, from = "source:NOPE" }}\n'
    )
    with pytest.raises(PackError) as info:
        loader.read_overlay(path)
    assert str(info.value).startswith(
        f"mine.toml: card '{ident}': field '{field}': unknown source key 'NOPE'"
    )
