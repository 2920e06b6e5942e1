"""Card packs (DESIGN §3): provenance per value, overlays, errors naming file/card/field."""

from __future__ import annotations

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
    assert (src.label, src.ref, str(src), src.is_known) == ("source", "TF", "source:TF", True)
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
