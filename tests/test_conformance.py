"""The conformance suite: every registered game fits the contract (DESIGN §2, §7).

Run over every game the registry finds — kumite's own and any installed beside it (the toy
game of ``tests/plugins``). Positions come from seeded random play; each test names the part
of the contract it checks.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from kumite.core.errors import ChoiceError, GameOverError, OptionsError
from kumite.core.game import State
from kumite.core.record import GameRecord, replay
from kumite.core.registry import game_ids, get_spec
from kumite.core.spec import GameSpec
from kumite.tui.registry import labels_for
from tests.graph import shared_mutables

GAMES = game_ids()
#: Steps of random play after which a game is stopped (keeps SF DBG's long games short).
STEPS = 400


@pytest.fixture(params=GAMES)
def spec(request: pytest.FixtureRequest) -> GameSpec:
    return get_spec(request.param)


def random_choices(state: State, rng: random.Random) -> dict[int, str]:
    return {d.seat: rng.choice(d.legal) for d in state.pending()}


def positions(spec: GameSpec, seed: int, every: int = 1) -> Iterator[State]:
    """Every ``every``-th position of one seeded random game (the final one included)."""
    game = spec.load()
    state = game.new_state(seed)
    rng = random.Random(seed)
    for step in range(STEPS):
        if step % every == 0 or state.is_terminal:
            yield state
        if state.is_terminal:
            return
        state.apply(random_choices(state, rng))


def observed(state: State) -> str:
    """Everything a caller can observe of a state: each seat's view, pending, history."""
    views = [state.view(s) for s in (None, *state.players)]
    pending = [(d.seat, d.kind, d.legal) for d in state.pending()]
    return json.dumps([views, pending, state.history], sort_keys=True, default=str)


def test_contract_metadata_and_decisions(spec: GameSpec) -> None:
    """§2: the spec names its game; metadata is sane; decisions name pending seats and
    non-empty tuples of distinct choice strings; the action ids map both ways."""
    game = spec.load()
    info = game.info
    assert info.id == spec.id
    assert 1 <= info.min_players <= info.max_players
    low, high = info.utility_range
    assert low < high
    for state in positions(spec, 1, every=7):
        seats = [d.seat for d in state.pending()]
        assert len(seats) == len(set(seats)) and set(seats) <= set(state.players)
        assert len(seats) <= 1 or info.simultaneous
        for d in state.pending():
            assert d.legal and all(isinstance(c, str) for c in d.legal)
            assert len(set(d.legal)) == len(d.legal)
            assert state.legal(d.seat) == d.legal
            actions = state.legal_actions(d.seat)
            assert [state.action_to_choice(d.seat, a) for a in actions] == list(d.legal)
            assert [state.choice_to_action(d.seat, c) for c in d.legal] == actions
            assert all(0 <= a < info.num_actions for a in actions)
        if state.is_terminal:
            outcome = state.outcome
            assert outcome is not None and not state.pending()
            assert len(outcome.returns) == state.num_players
            assert all(low <= r <= high for r in outcome.returns)


BAD = [
    ("missing", lambda d, others: {s: c for s, c in others.items() if s != d.seat}),
    ("illegal", lambda d, others: {**others, d.seat: "no-such-choice"}),
    ("not a string", lambda d, others: {**others, d.seat: 7}),
    ("not pending", lambda d, others: {**others, 99: d.legal[0]}),
    ("not a mapping", lambda d, others: [d.legal[0]]),
]


@pytest.mark.parametrize(("name", "bad"), BAD, ids=[b[0] for b in BAD])
def test_bad_choices_are_never_half_applied(spec: GameSpec, name: str, bad: Any) -> None:
    """§2 "choices are never half-applied": a missing, illegal, malformed or out-of-turn
    choice raises a ChoiceError (a ValueError) and leaves the state as it was."""
    rng = random.Random(2)
    for state in positions(spec, 2, every=5):
        if state.is_terminal:
            before = observed(state)
            with pytest.raises(GameOverError):
                state.apply({0: "anything"})
            assert observed(state) == before
            continue
        good = random_choices(state, rng)
        decision = rng.choice(state.pending())
        before = observed(state)
        with pytest.raises(ChoiceError) as info:
            state.apply(bad(decision, good))
        assert isinstance(info.value, ValueError)
        assert observed(state) == before, name


def _play(state: State, seed: int, steps: int = 30) -> list[str]:
    rng = random.Random(seed)
    seen = []
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(random_choices(state, rng))
        seen.append(observed(state))
    return seen


def test_clones_share_no_mutable_object(spec: GameSpec) -> None:
    """§2 ``clone()``: an independent copy. Playing a clone on changes nothing the original
    shows, and the original then plays on exactly as a twin cloned before: no zone, counter,
    label or random stream is shared."""
    for state in positions(spec, 3, every=11):
        twin, copy = state.clone(), state.clone()
        before = observed(state)
        _play(copy, 30)
        assert observed(state) == before
        assert _play(state, 31) == _play(twin, 31)


def every_seat_count(spec: GameSpec, seed: int, every: int) -> Iterator[State]:
    """Positions of one seeded random game for each number of seats the game takes (SF DBG
    2-5 players, Rivales 1vs1 and 2vs2), every ``every``-th step and the last."""
    game = spec.load()
    info = game.info
    for seats in range(info.min_players, info.max_players + 1):
        try:
            options = spec.with_seats({}, seats)
        except OptionsError:
            continue
        state = game.new_state(seed, options)
        rng = random.Random(seed)
        for step in range(STEPS):
            if step % every == 0 or state.is_terminal:
                yield state
            if state.is_terminal:
                break
            state.apply(random_choices(state, rng))


@pytest.mark.parametrize("seed", range(3))
def test_a_clone_reaches_no_mutable_object_of_its_original(spec: GameSpec, seed: int) -> None:
    """§2 ``clone()``, walked: the object graphs of a state and its clone share no mutable
    object (immutable values may be shared). A shared list (Rivales once shared its seats'
    names) lets a search write into the live table, a change the test above sees only if
    the search happens to write it."""
    checked = 0
    for state in every_seat_count(spec, seed, every=9):
        shared = shared_mutables(state, state.clone())
        assert not shared, f"seed {seed} step {len(state.history)}: {shared[:5]}"
        checked += 1
    assert checked >= 2  # the first position and the last at least


@pytest.mark.parametrize("seed", [12, 13])
def test_teams_partition_the_seats_and_share_their_outcome(spec: GameSpec, seed: int) -> None:
    """The declared teams (``State.teams``; each seat alone unless the game says otherwise),
    for every number of seats: every seat in exactly one team, the same from the first step to
    the last; a team's seats share the outcome (all of them win, or none; the same return)."""
    checked = 0
    for state in every_seat_count(spec, seed, every=STEPS):
        teams = state.teams
        assert sorted(s for team in teams for s in team) == list(state.players)
        assert all(state.team(s) == team for team in teams for s in team)
        assert teams == spec.load().new_state(seed, state.options_json).teams
        outcome = state.outcome
        if outcome is not None:
            for team in teams:
                assert len({s in outcome.winners for s in team}) == 1, (team, outcome)
                assert len({outcome.returns[s] for s in team}) == 1, (team, outcome)
                checked += 1
    assert checked or spec.load().info.max_decisions > STEPS


@pytest.mark.parametrize("seed", [4, 5])
def test_views_unchanged_when_hidden_state_is_resampled(spec: GameSpec, seed: int) -> None:
    """§2 determinisation: a determinisation for a seat resamples only what it cannot see,
    so that seat's view and decisions are the same in it."""
    game = spec.load()
    rng = random.Random(seed)
    for state in positions(spec, seed, every=9):
        for seat in state.players:
            if not game.info.hidden_information:
                break
            world = state.determinize(seat, rng)
            assert world.view(seat) == state.view(seat)
            mine = [d for d in state.pending() if d.seat == seat]
            assert [d for d in world.pending() if d.seat == seat] == mine


@pytest.mark.parametrize("seed", [6, 16])
def test_records_replay(spec: GameSpec, seed: int) -> None:
    """§5: a game's record (seed, options, choices; the outcome once over) survives JSON and
    replays to the same position (a long game is recorded where the step budget stops it)."""
    *_, state = positions(spec, seed)
    record = GameRecord.from_json(json.loads(json.dumps(state.to_record().to_json())))
    again = replay(record, spec.load())
    assert observed(again) == observed(state)
    assert again.outcome == state.outcome


def test_unknown_action_ids_are_choice_errors(spec: GameSpec) -> None:
    """§2 action ids: an id outside the game's range (or no number), or a choice with no
    id, is refused with a ChoiceError that changes nothing."""
    size = spec.load().info.num_actions
    for state in positions(spec, 10, every=13):
        if state.is_terminal:
            continue
        seat = state.pending()[0].seat
        before = observed(state)
        for bad in (size, -1, 10**9, "3"):
            with pytest.raises(ChoiceError):
                state.apply_action({seat: bad})
        with pytest.raises(ChoiceError):
            state.choice_to_action(seat, "no-such-choice")
        assert observed(state) == before


def test_events_name_a_rule_of_the_index_and_say_what_happened(spec: GameSpec) -> None:
    """§2 events: each names the rule it applies (a key of the game's rule index), describes
    itself and has a JSON form; a quiet state builds none."""
    game = spec.load()
    rules = game.rules
    loud, quiet = game.new_state(11), game.new_state(11)
    quiet.quiet = True
    rng = random.Random(11)
    for _ in range(STEPS):
        if loud.is_terminal:
            break
        choices = random_choices(loud, rng)
        assert quiet.apply(dict(choices)) == []
        for event in loud.apply(choices):
            assert event.rule in rules, event
            assert event.describe() and json.dumps(event.to_json())


def test_every_legal_choice_has_a_label(spec: GameSpec) -> None:
    """§7: each legal choice gets a readable label (the game's, or the generic front end's),
    built from the deciding seat's view only."""
    game = spec.load()
    labeler = None if spec.labels is None else spec.labels.load()(game, {})
    for state in positions(spec, 7, every=3):
        for d in state.pending():
            labels = labels_for(labeler, state.view(d.seat), d.legal)
            assert len(labels) == len(d.legal)
            assert all(isinstance(x, str) and x.strip() for x in labels)


def test_options_round_trip(spec: GameSpec) -> None:
    """§2 options: the declared fields are the options type's, with its defaults; every
    declared choice is accepted; options survive their JSON form (as records store them)."""
    game = spec.load()
    fields = spec.option_fields()
    defaults = game.parse_options(None)
    for f in fields:
        assert f.default == getattr(defaults, f.name)
        assert f.doc, f"option {f.name} has no documentation"
        for value in f.choices:
            state = game.new_state(0, _seated(spec, {f.name: value}))
            parsed = game.parse_options(state.options_json)
            assert getattr(parsed, f.name) == value
            assert game.parse_options(game.options_to_json(parsed)) == parsed


def test_unknown_and_misshapen_options_are_refused(spec: GameSpec) -> None:
    """Bad input: an option the game does not declare, or a value of the wrong type, is an
    OptionsError (one line), not a table with the option ignored."""
    game = spec.load()
    with pytest.raises(OptionsError):
        game.parse_options({"no_such_option": 1})
    for f in spec.option_fields():
        with pytest.raises(OptionsError):
            game.parse_options({f.name: {"not": "a value"}})


def _seated(spec: GameSpec, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` for the smallest number of seats they fit (a 2vs2 mode needs 4)."""
    info = spec.load().info
    for seats in range(info.min_players, info.max_players + 1):
        try:
            return spec.with_seats(options, seats)
        except OptionsError:
            continue
    raise AssertionError(f"no seat count fits {options}")


def test_determinism(spec: GameSpec) -> None:
    """§2 chance: the same seed and choices give the same game, quiet or not."""
    runs = []
    for quiet in (False, True, False):
        state = spec.load().new_state(8)
        state.quiet = quiet
        rng = random.Random(8)
        for _ in range(STEPS):
            if state.is_terminal:
                break
            state.apply(random_choices(state, rng))
        runs.append(observed(state))
    assert runs[0] == runs[1] == runs[2]


def test_trusted_choices_play_the_same_game(spec: GameSpec) -> None:
    """§7 the fast path: ``apply_trusted`` with legal choices does what ``apply`` does."""
    checked, trusted = spec.load().new_state(9), spec.load().new_state(9)
    rng = random.Random(9)
    for _ in range(STEPS):
        if checked.is_terminal:
            break
        choices = random_choices(checked, rng)
        assert checked.apply(dict(choices)) == trusted.apply_trusted(dict(choices))
        assert observed(checked) == observed(trusted)
