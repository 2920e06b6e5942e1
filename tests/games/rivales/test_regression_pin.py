"""A pin of random Rivales fights, recorded before the engine was optimised for speed.

Seed and random choices give the same fight as before: the same decisions (seat, kind,
legal choices, prompt) at every step, the same events, the same outcome (reason, winners,
rounds won, final lives) and the same final views. Any change of semantics, even one that
keeps the rules' spirit, moves a digest here; a deliberate rules change re-pins the table
(``_row`` prints a row) and says why in its commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from kumite.games.rivales.game import GAME

PinRow = tuple[int, str, list[int], list[int], list[int], list[str], str, str, str]

# (seed, options, (steps, reason, winners, rounds won, lives, fighters,
#  decisions+choices digest, final views digest, events digest))
PINNED: list[tuple[int, dict[str, Any], PinRow]] = [
    (
        1000,
        {},
        (
            35,
            "2 rounds won",
            [1],
            [1, 2],
            [5, 6],
            ["zorro", "sombrerero"],
            "cf1c310c087f1afa",
            "dd97b071aaa64433",
            "2a9f6de0821aaa19",
        ),
    ),
    (
        1037,
        {"clash_winner": "attacker"},
        (
            53,
            "2 rounds won",
            [1],
            [1, 2],
            [3, 7],
            ["sombrerero", "darwin"],
            "5a4fb58c6884041f",
            "e9efded66d9f04dc",
            "1ad22ec1987ddb5d",
        ),
    ),
    (
        1074,
        {"max_combo_card": "exhausted"},
        (
            67,
            "2 rounds won",
            [0],
            [2, 1],
            [8, 2],
            ["mulan", "hansel-gretel"],
            "3c3ad93cb4ce10f6",
            "b3632d30653ffbfa",
            "9e60f5703830ae3e",
        ),
    ),
    (
        1111,
        {"final_round_limit": 1},
        (
            72,
            "3 rounds won",
            [0],
            [3, 2],
            [5, 4],
            ["zorro", "hansel-gretel"],
            "4480147bd2590195",
            "3dd91c5e585f8cda",
            "10f41322fdd0b39b",
        ),
    ),
    (
        1148,
        {},
        (
            69,
            "2 rounds won",
            [0],
            [2, 1],
            [4, 2],
            ["darwin", "hansel-gretel"],
            "d65aa775a3923e3e",
            "00aece0df782fb1c",
            "1a2989e6ea6bd690",
        ),
    ),
    (
        1185,
        {"clash_winner": "attacker"},
        (
            66,
            "2 rounds won",
            [1],
            [1, 2],
            [1, 2],
            ["hansel-gretel", "hansel-gretel"],
            "6d062d5b985534e7",
            "ec1b49bb56ed0d7e",
            "b6a83a46eee2d9d9",
        ),
    ),
    (
        1222,
        {"max_combo_card": "exhausted"},
        (
            43,
            "2 rounds won",
            [0],
            [2, 1],
            [8, 6],
            ["darwin", "hansel-gretel"],
            "a34c89794d0fb557",
            "1dd9afdf5dd56807",
            "1e9759a5d4d804b1",
        ),
    ),
    (
        1259,
        {"final_round_limit": 1},
        (
            50,
            "2 rounds won",
            [1],
            [0, 2],
            [4, 5],
            ["hansel-gretel", "sombrerero"],
            "0ec8e39b43955a80",
            "182522b3910d3c7c",
            "0b845ca02644a246",
        ),
    ),
    (
        1296,
        {},
        (
            57,
            "2 rounds won",
            [0],
            [2, 1],
            [6, 3],
            ["sombrerero", "mulan"],
            "ac528bf4438e4d29",
            "671aeeee39674390",
            "ea2d25113f57eebd",
        ),
    ),
    (
        1333,
        {"clash_winner": "attacker"},
        (
            33,
            "2 rounds won",
            [0],
            [2, 1],
            [3, 1],
            ["darwin", "darwin"],
            "b5bb61122751a442",
            "8de13de3a0c05857",
            "16d9ad3d658a255c",
        ),
    ),
    (
        1370,
        {"max_combo_card": "exhausted"},
        (
            45,
            "2 rounds won",
            [1],
            [1, 2],
            [3, 6],
            ["zorro", "darwin"],
            "1b5b5135dbe6f690",
            "6c7f1c389974b0a1",
            "0306b4e66d39031e",
        ),
    ),
    (
        1407,
        {"final_round_limit": 1},
        (
            33,
            "2 rounds won",
            [1],
            [0, 2],
            [4, 7],
            ["darwin", "mulan"],
            "1c5dda9d0188f8dd",
            "89a901d06e05d120",
            "157b6d9f5a2369fb",
        ),
    ),
    (
        1444,
        {},
        (
            50,
            "2 rounds won",
            [1],
            [0, 2],
            [2, 6],
            ["hansel-gretel", "darwin"],
            "b1acdb86d01cc91c",
            "1e5b59e3f2c6d9e1",
            "b2a602acbf323fbf",
        ),
    ),
    (
        1481,
        {"clash_winner": "attacker"},
        (
            30,
            "2 rounds won",
            [1],
            [0, 2],
            [7, 9],
            ["curie", "mulan"],
            "6b1129ac7ff3a7c9",
            "c330d7c2350dd3bb",
            "c6e91bbaa90ae239",
        ),
    ),
    (
        1518,
        {"max_combo_card": "exhausted"},
        (
            44,
            "2 rounds won",
            [1],
            [1, 2],
            [4, 8],
            ["darwin", "curie"],
            "5d7b4a5b5b428858",
            "3b51a2f1f24c059e",
            "2e3c4595e7bf4b24",
        ),
    ),
    (
        1555,
        {"final_round_limit": 1},
        (
            32,
            "2 rounds won",
            [1],
            [0, 2],
            [8, 9],
            ["darwin", "mulan"],
            "09a941460ebb7e71",
            "4d7680df3d706e2f",
            "2020262369b0c92b",
        ),
    ),
    (
        1592,
        {},
        (
            26,
            "2 rounds won",
            [0],
            [2, 1],
            [5, 4],
            ["curie", "mulan"],
            "5c452d518a126b15",
            "379f137672aebafa",
            "477457c71f8ffbab",
        ),
    ),
    (
        1629,
        {"clash_winner": "attacker"},
        (
            41,
            "2 rounds won",
            [0],
            [2, 0],
            [7, 5],
            ["zorro", "zorro"],
            "b265a9d5e72d24c1",
            "340e9cff131e83da",
            "531df16b20cbdc6e",
        ),
    ),
    (
        1666,
        {"max_combo_card": "exhausted"},
        (
            37,
            "2 rounds won",
            [1],
            [0, 2],
            [3, 6],
            ["zorro", "darwin"],
            "0943c7e30c64ed60",
            "0986d22c67cd0046",
            "e2133218ffe276b2",
        ),
    ),
    (
        1703,
        {"final_round_limit": 1},
        (
            38,
            "2 rounds won",
            [0],
            [2, 1],
            [3, 3],
            ["darwin", "zorro"],
            "b5a5fe9ac4f23a47",
            "36b6bff46f399ed8",
            "91b2604777d431db",
        ),
    ),
    (
        5000,
        {"mode": "2v2"},
        (
            144,
            "2 rounds won",
            [2, 3],
            [1, 2],
            [1, 7, 6, 5],
            ["hansel-gretel", "darwin", "zorro", "sombrerero"],
            "15e3704c83f72c87",
            "28fb360fdb7788d7",
            "a65aee1589a2fad4",
        ),
    ),
    (
        5011,
        {"mode": "2v2", "clash_winner": "attacker", "pinzas": "facing"},
        (
            88,
            "2 rounds won",
            [0, 1],
            [2, 0],
            [6, 5, 8, 2],
            ["mulan", "sombrerero", "curie", "sombrerero"],
            "80ba7df88f3e04f7",
            "96f9a989c2dd71f0",
            "0719460b753ca7d5",
        ),
    ),
    (
        5022,
        {"mode": "2v2", "max_combo_card": "exhausted"},
        (
            130,
            "2 rounds won",
            [0, 1],
            [2, 1],
            [7, 6, 5, 6],
            ["hansel-gretel", "darwin", "zorro", "sombrerero"],
            "2a2e858cb6685221",
            "e3b152cd5d4a94eb",
            "69034742e6ed0e08",
        ),
    ),
    (
        5033,
        {"mode": "2v2", "final_round_limit": 1, "pinzas": "facing"},
        (
            105,
            "2 rounds won",
            [2, 3],
            [1, 2],
            [7, 0, 1, 7],
            ["darwin", "zorro", "curie", "sombrerero"],
            "ad5b09de1a75123b",
            "29fb829679702be2",
            "a89bbbebc3ec2b53",
        ),
    ),
    (
        5044,
        {"mode": "2v2"},
        (
            127,
            "2 rounds won",
            [2, 3],
            [1, 2],
            [4, 3, 5, 9],
            ["zorro", "sombrerero", "mulan", "curie"],
            "989e87f1356aa5b4",
            "1e5f53c7062a8ee8",
            "77d7b986a29b7d5f",
        ),
    ),
]


def _row(seed: int, options: dict[str, Any], quiet: bool) -> PinRow:
    state = GAME.new_state(seed, options)
    state.quiet = quiet
    rng = random.Random(seed * 7 + 1)
    decisions = hashlib.sha256()
    events = hashlib.sha256()
    steps = 0
    while not state.is_terminal:
        pending = state.pending()
        choices = {d.seat: rng.choice(d.legal) for d in pending}
        decisions.update(repr([(d.seat, d.kind, d.legal, d.prompt) for d in pending]).encode())
        decisions.update(repr(sorted(choices.items())).encode())
        for e in state.apply(choices):
            events.update(json.dumps(e.to_json(), sort_keys=True).encode())
        steps += 1
    outcome = state.outcome
    assert outcome is not None
    views = json.dumps([state.view(None), state.view(0)], sort_keys=True).encode()
    return (
        steps,
        outcome.reason,
        list(outcome.winners),
        outcome.detail["rounds_won"],
        outcome.detail["lives"],
        outcome.detail["fighters"],
        decisions.hexdigest()[:16],
        hashlib.sha256(views).hexdigest()[:16],
        events.hexdigest()[:16],
    )


@pytest.mark.parametrize(("seed", "options", "expected"), PINNED)
def test_random_fights_replay_as_pinned(
    seed: int, options: dict[str, Any], expected: PinRow
) -> None:
    """Seeded random fights are unchanged: decisions, events, outcome and final views."""
    assert _row(seed, options, quiet=False) == expected
    quiet = _row(seed, options, quiet=True)
    assert quiet[:8] == expected[:8]  # quiet states build no events; all else is the same


def _aggregate(n: int, quiet: bool) -> str:
    digest = hashlib.sha256()
    for seed in range(n):
        state = GAME.new_state(seed, {"mode": "2v2" if seed % 5 == 0 else "1v1"})
        state.quiet = quiet
        rng = random.Random(seed)
        while not state.is_terminal:
            pending = state.pending()
            choices = {d.seat: rng.choice(d.legal) for d in pending}
            digest.update(repr([(d.seat, d.kind, d.legal) for d in pending]).encode())
            for e in state.apply(choices):
                digest.update(json.dumps(e.to_json(), sort_keys=True).encode())
        digest.update(repr(state.outcome).encode())
    return digest.hexdigest()[:16]


def test_hundreds_of_random_fights_replay_as_pinned() -> None:
    """300 quiet fights (every fifth 2vs2) and 40 with events give the pinned digests."""
    assert _aggregate(300, quiet=True) == "f185134cef97bfb8"
    assert _aggregate(40, quiet=False) == "5dcc5cfef342ef71"


def _benchmark_digest(n: int) -> str:
    """Quiet 1vs1 fights played as ``benchmarks/rivales_random.py`` plays them: their
    choices, outcomes, final views and the state of the engine's random stream."""
    digest = hashlib.sha256()
    rng = random.Random(0)
    for seed in range(10**6, 10**6 + n):
        state = GAME.new_state(seed, {"mode": "1v1"})
        state.quiet = True
        while not state.is_terminal:
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
        digest.update(repr(state.history).encode())
        digest.update(repr(state.outcome).encode())
        digest.update(json.dumps(state.view(None), sort_keys=True).encode())
        digest.update(repr(state.rng.getstate()).encode())
    return digest.hexdigest()[:16]


def test_benchmark_fights_replay_as_pinned() -> None:
    """200 quiet 1vs1 fights of the speed benchmark (the path its optimisations take)
    make the same choices, outcomes, views and random draws as before them."""
    assert _benchmark_digest(200) == "a6ce4a8a446c20fe"
