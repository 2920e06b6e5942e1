"""Game records (docs/records.md): JSON round trip, exact replay, one-line errors."""

from __future__ import annotations

import json

import pytest

from kumite.core import GameRecord, RecordError, replay
from tests.core.toy import GAME


def finished(seed: int = 5):
    state = GAME.new_state(seed, {"note": "x"})
    state.apply({0: "raise", 1: "stay"})
    state.apply({0: "call"})
    return state


def test_record_round_trips_through_json(tmp_path):
    state = finished()
    rec = state.to_record(players=["a", "b"])
    path = tmp_path / "game.json"
    rec.save(path)
    again = GameRecord.load(path)
    assert again == rec
    data = json.loads(path.read_text())
    assert data["game"] == "toy" and data["seed"] == 5 and data["options"] == {"note": "x"}
    assert data["steps"] == [{"0": "raise", "1": "stay"}, {"0": "call"}]


def test_replay_reproduces_the_outcome():
    state = finished(9)
    again = replay(state.to_record(), GAME)
    assert again.outcome == state.outcome
    assert again.numbers == state.numbers


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda d: d.update(steps=[{"0": "fly", "1": "stay"}]), "step 1: seat 0: choice 'fly'"),
        (lambda d: d.update(steps=[{"x": "raise"}]), "step 1: seats must be numbers"),
        (lambda d: d.update(game="chess"), "record is for game 'chess'"),
        (lambda d: d.update(rules_version="toy-0"), "rules version"),
        (lambda d: d.update(format_version=99), "format_version 99"),
        (lambda d: d["outcome"].update(winners=[1]), "differs from the recorded"),
        (lambda d: d.update(seed="abc"), "Expected `int`"),
        (lambda d: d.update(extra=1), "unknown field `extra`"),
    ],
)
def test_corrupted_record_gives_one_line_error(mutate, words):
    data = json.loads(finished().to_record().to_json())
    mutate(data)
    with pytest.raises(RecordError) as info:
        replay(GameRecord.from_json(json.dumps(data), source="r.json"), GAME, source="r.json")
    message = str(info.value)
    assert words in message
    assert "\n" not in message
    assert message.startswith("r.json")


def test_unreadable_and_non_json_records(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match=r"bad\.json: not a valid game record"):
        GameRecord.load(bad)
