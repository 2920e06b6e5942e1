"""Issue 17: each game's declared observation encoding (GameSpec.observation) — fixed length,
bounded, relative seats, documented field by field, built from the seat's view alone."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kumite.core.game import State
from kumite.core.observation import Encoding, HistoryEncoding
from kumite.core.registry import get_spec, specs
from kumite.envs.base import EnvGame, NoEnvError

DOCS = Path(__file__).resolve().parents[2] / "docs" / "envs.md"


def random_states(env: EnvGame, seed: int, every: int = 1, limit: int = 400) -> list[State]:
    """Every ``every``-th position of one random game (the last one included)."""
    state = env.new_state(seed)
    rng = random.Random(seed)
    out = []
    for step in range(limit):
        if step % every == 0 or state.is_terminal:
            out.append(state.clone())
        if state.is_terminal:
            break
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    return out


def test_every_value_within_the_declared_bounds(mode: tuple[str, dict[str, Any]]) -> None:
    """docs/envs.md: a fixed-length float32 tensor, every value in [low, high] of its field."""
    env = EnvGame.make(*mode)
    enc = env.encoding
    for seed in (1, 2):
        for state in random_states(env, seed, every=3):
            for seat in state.players:
                t = env.observe(state, seat)
                assert t.dtype == np.float32 and t.shape == (enc.size,)
                outside = [
                    f.name
                    for f in enc.fields
                    if (enc.field(t, f.name) > f.high).any() or (enc.field(t, f.name) < f.low).any()
                ]
                assert outside == []


def test_observation_is_unchanged_when_hidden_information_is_resampled(
    mode: tuple[str, dict[str, Any]],
) -> None:
    """Leak test: a seat's observation is the same in every determinisation for that seat
    (everything it cannot see resampled: other hands, deck orders, covers)."""
    env = EnvGame.make(*mode)
    rng = random.Random(7)
    checked = changed = 0
    for state in random_states(env, 5, every=4):
        for seat in state.players:
            mine = env.observe(state, seat)
            for _ in range(3):
                world = state.determinize(seat, rng)
                assert np.array_equal(env.observe(world, seat), mine)
                checked += 1
                other = next(s for s in state.players if s != seat)
                changed += not np.array_equal(env.observe(world, other), env.observe(state, other))
    assert checked
    # the resampling did hide something: another seat's own tensor changed somewhere
    assert changed


GAMES_PER_MODE = {"sfrivals": 150, "rivales": 25, "sfdbg": 3}


def test_observation_read_from_the_state_is_the_encoding_of_the_view(
    mode: tuple[str, dict[str, Any]],
) -> None:
    """Issue 31: the environments write a seat's tensor straight from the state, through the
    game's view module, without building the view (Encoding.observe), and fold the
    public-history memory the same way (HistoryEncoding.remember). For every seat at every
    step of random games, both are exactly what encoding the seat's view gives."""
    env = EnvGame.make(*mode)
    enc, history = env.encoding, env.encoding.history
    if type(env.game).__module__.startswith("kumite.games."):  # kumite's games: the fast path
        assert type(enc).observe is not Encoding.observe
        assert history is None or type(history).remember is not HistoryEncoding.remember
    checked = 0
    for seed in range(GAMES_PER_MODE.get(mode[0], 300)):
        state = env.new_state(seed)
        rng = random.Random(seed)
        folded = {s: (history.start(), history.start()) for s in state.players} if history else {}
        while True:
            for seat in state.players:
                fast = enc.observe(state, seat)
                assert fast.dtype == np.float32
                assert np.array_equal(fast, enc.encode(state.view(seat)))
                checked += 1
                if history is not None:
                    from_views, from_state = folded[seat]
                    history.fold(from_views, state.view(seat))
                    history.remember(from_state, state, seat)
                    assert np.array_equal(from_views, from_state)
            if state.is_terminal:
                break
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    assert checked > 1000


def test_every_field_is_documented() -> None:
    """docs/envs.md documents each encoding field by field (its generated layout table)."""
    text = DOCS.read_text("utf-8")
    for game, options in [("sfrivals", {}), ("rivales", {}), ("sfdbg", {})]:
        env = EnvGame.make(game, options)
        for f in env.encoding.fields:
            assert f"`{f.name}`" in text, (game, f.name)
        assert env.encoding.layout_table().splitlines()[2] in text, game
        history = env.encoding.history
        if history is not None:  # the public-history memory's layout too
            for line in history.layout_table().splitlines()[2:]:
                assert line in text, (game, line)


def test_seats_are_relative_observer_first() -> None:
    """docs/envs.md: per-seat blocks start with the observing seat (one policy for every
    seat); ``seat`` still says which seat it is."""
    env = EnvGame.make("sfrivals", {"characters": ["ryu", "ken"]})
    state = env.new_state(3)
    rng = random.Random(3)
    while not state.is_terminal and state.lives == [10, 10]:
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    enc = env.encoding
    for seat in (0, 1):
        t = env.observe(state, seat)
        assert list(enc.field(t, "life")) == [state.lives[seat], state.lives[1 - seat]]
        assert list(enc.field(t, "seat")) == [1.0 - seat, float(seat)]
        chars = enc.field(t, "character")
        ids = list(state.catalog.characters)
        assert chars[0, ids.index(state.chars[seat].id)] == 1


def test_sfrivals_tensor_is_perfect_recall() -> None:
    """The SF Rivals view holds the whole history a seat knows (characters, both shown
    cards, its cover, every round's cards in order), so the tensor is an information-state
    tensor: positions with the same tensor have the same own choices, step by step, and
    the same cards seen of the opponent."""
    env = EnvGame.make("sfrivals", {"characters": ["ryu", "ryu"]})
    assert env.encoding.perfect_recall
    seen: dict[bytes, tuple[Any, ...]] = {}
    distinct = 0
    for seed in range(40):
        for state in random_states(env, seed):
            own = tuple(step.get(0) for step in state.history)
            shown = state.shown[1].id if state.shown[1] else None
            early = state.early[1].id if state.early[1] else None
            opponent = [c.id for c in state.played[1]]
            if early is not None:
                opponent = opponent[:-1]
            record = (own, shown, tuple(opponent), early)
            key = env.observe(state, 0).tobytes()
            distinct += key not in seen
            assert seen.setdefault(key, record) == record
    assert distinct > 100


def test_a_game_without_an_encoding_has_no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that declares no observation (the toy plugin without its own): the env
    factory says so in one line."""
    bare = dataclasses.replace(get_spec("toy"), observation=None)
    monkeypatch.setitem(specs(), "toy", bare)
    with pytest.raises(NoEnvError) as info:
        EnvGame.make("toy")
    assert "\n" not in str(info.value) and "no observation encoding" in str(info.value)


def test_metadata_names_the_pack() -> None:
    """Action ids depend on the pack: the metadata carries its id, version and sha256."""
    env = EnvGame.make("sfrivals")
    meta = env.metadata()
    assert meta["name"] == "kumite_sfrivals_v0"
    assert meta["pack"]["sha256"] == env.game.pack_ref(env.game.parse_options({}))["sha256"]
    assert len(meta["pack"]["sha256"]) == 64
