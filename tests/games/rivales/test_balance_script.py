"""scripts/rivales_balance.py --set: a pack measured with a few values moved, no overlay written."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest

from tests.games.rivales.helpers import SCRIPTS, script

SCREENED2 = SCRIPTS.parent / "examples" / "packs" / "rivales_screened2.toml"
SETS = ["zorro.ultra_at=3", "hansel-gretel.baston.damage=1"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return script("rivales_balance.py", "--fights", "4", "-j", "1", "--seed", "7", *args)


def table(*args: str) -> dict:
    done = run("--fighters", "zorro,curie,hansel-gretel", "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def with_values():
    sys.path.insert(0, str(SCRIPTS))
    try:
        from rivales_balance import with_values

        yield with_values
    finally:
        sys.path.remove(str(SCRIPTS))


def test_set_writes_each_value_over_the_pack_and_keeps_its_provenance(with_values):
    text = with_values(SCREENED2.read_text(encoding="utf-8"), SETS)
    data = tomllib.loads(text)
    entries = {e["id"]: e for e in [*data["cards"], *data["fighters"]]}
    assert entries["zorro"]["ultra_at"]["value"] == 3
    assert entries["hansel-gretel.baston"]["damage"]["value"] == 1
    for ident, field, was in (("zorro", "ultra_at", 4), ("hansel-gretel.baston", "damage", 2)):
        assert entries[ident][field]["from"] == "reconstructed"
        assert entries[ident][field]["note"].endswith(f"was {was}")
    # the starting pack's own values stay as they were
    assert entries["hansel-gretel.guardia"]["guard"]["value"] == 1
    assert entries["sombrerero"]["ultra_at"]["value"] == 3


def test_set_plays_the_same_fights_as_the_same_values_written_as_an_overlay(with_values, tmp_path):
    overlay = tmp_path / "moved.toml"
    overlay.write_text(with_values(SCREENED2.read_text(encoding="utf-8"), SETS), "utf-8")
    moved = table("--pack", str(SCREENED2), *[a for s in SETS for a in ("--set", s)])
    written = table("--pack", str(overlay))
    assert moved["matchups"] == written["matchups"]
    assert moved["fighters"] == written["fighters"]
    assert moved["set"] == SETS and "set" not in written
    # a table names the overlay it played by content: the same values, the same hash
    assert moved["pack"] == written["pack"]
    assert written["pack"]["sha256"] != table("--pack", str(SCREENED2))["pack"]["sha256"]
    assert "pack" not in table()  # the base pack itself: no overlay to name


def test_of_plays_one_fighters_row_of_the_same_fights_as_the_whole_table():
    whole = table("--pack", str(SCREENED2))
    row = table("--pack", str(SCREENED2), "--of", "curie")
    assert row["of"] == "curie" and list(row["fighters"]) == ["curie"]
    assert row["fighters"]["curie"]["fights"] == 2 * 4  # two others of the three, 4 fights each
    theirs = {k: v for k, v in whole["matchups"].items() if "curie" in k.split("|")}
    assert row["matchups"] == theirs  # the same seeds: the whole table's fights
    assert row["fighters"]["curie"] == whole["fighters"]["curie"]
    bad = run("--of", "nobody")
    assert bad.returncode == 2 and "--of 'nobody': not one of the fighters played" in bad.stderr


def test_set_moves_a_number_inside_a_cards_effects_and_says_it_anew_in_its_text(with_values):
    item = "curie.isotopos.effects.0.max=1"
    data = tomllib.loads(with_values(SCREENED2.read_text(encoding="utf-8"), [item]))
    isotopos = next(e for e in data["cards"] if e["id"] == "curie.isotopos")
    assert isotopos["effects"][0]["max"] == 1
    assert "(at most +1)" in isotopos["text"]["value"]
    assert isotopos["text"]["from"] == "reconstructed"
    assert isotopos["damage"]["value"] == 1  # the starting pack's own value stays
    moved = table("--pack", str(SCREENED2), "--set", item)
    assert moved["set"] == [item]


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ("zorro.ultra_at=x", "bad --set 'zorro.ultra_at=x': use ID.FIELD=VALUE"),
        ("ultra_at=3", "bad --set 'ultra_at=3'"),
        ("zorro.nothing=3", "zorro.nothing is no integer value of the pack"),
        ("nobody.speed=3", "nobody.speed is no integer value of the pack"),
        ("zorro.ultra_at=99", "field 'ultra_at'"),
        ("curie.isotopos.effects.0.max=0", "curie.isotopos.effects.0.max: the text cannot say 0"),
        # Radio says "one of your exhausted cards": a number its text does not say as one
        ("curie.radio.effects.0.amount=2", "is no integer value of the pack"),
    ],
)
def test_bad_set_is_one_line_naming_it(item, words):
    bad = run("--set", item)
    assert bad.returncode == 2 and words in bad.stderr and "Traceback" not in bad.stderr
