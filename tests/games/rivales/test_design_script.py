"""scripts/rivales_design.py: many one-value moves read at once (a balanced random design,
fitted per pairing on its two fighters' moves), and the combinations proposed by their
predicted odds of the balance check."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

from kumite.core.errors import OptionsError
from tests.games.rivales.helpers import SCRIPTS, script

SCREENED2 = SCRIPTS.parent / "examples" / "packs" / "rivales_screened2.toml"
sys.path.insert(0, str(SCRIPTS))

import rivales_design as design  # noqa: E402  (a script, importable from its directory)
from rivales_balance import with_values  # noqa: E402


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return script("rivales_design.py", "-j", "1", *args)


def test_plan__the_start_first_and_each_move_in_the_same_number_of_packs():
    moves = [f"zorro.latigazo.speed={v}" for v in (1, 2)] + ["curie.life=12", "mulan.life=9"]
    packs = design.plan(moves, 11, 0.3, seed=5)
    assert packs[0] == [] and len(packs) == 11
    for m in moves:
        assert sum(m in p for p in packs) == 3
    assert packs == design.plan(moves, 11, 0.3, seed=5)  # reproducible from its seed


def test_owner__a_fighters_field_its_cards_and_a_number_inside_a_cards_effects():
    fighters = ["zorro", "curie"]
    assert design.owner("zorro.ultra_at=3", fighters) == "zorro"
    assert design.owner("curie.fisica.damage=1", fighters) == "curie"
    assert design.owner("curie.isotopos.effects.0.max=1", fighters) == "curie"
    with pytest.raises(OptionsError, match="a basic card is every fighter's"):
        design.owner("basic.golpe.damage=3", fighters)


def test_fit__recovers_known_effects_and_a_fighter_outside_a_pairing_never_moves_it():
    fighters = ["zorro", "curie", "mulan"]
    pairs = [("zorro", "curie"), ("zorro", "mulan"), ("curie", "mulan")]
    moves = ["zorro.amague.damage=3", "curie.life=12", "mulan.grillo.speed=2"]
    owners = [design.owner(m, fighters) for m in moves]
    true_start = {pairs[0]: 0.40, pairs[1]: 0.55, pairs[2]: 0.50}
    true_effect = {  # on the pairing's first fighter's score
        (pairs[0], 0): +0.10, (pairs[0], 1): -0.20,
        (pairs[1], 0): +0.05, (pairs[1], 2): -0.10,
        (pairs[2], 1): +0.15, (pairs[2], 2): -0.05,
    }  # fmt: skip
    packs = design.plan(moves, 16, 0.5, seed=3)
    rng = np.random.default_rng(11)
    scores = {}
    for run_, sets in enumerate(packs):
        for pair in pairs:
            p = true_start[pair] + sum(
                e for (q, j), e in true_effect.items() if q == pair and moves[j] in sets
            )
            scores[(run_, *pair)] = list((rng.random(4000) < p).astype(float))
    model = design.fit(moves, owners, packs, pairs, scores)
    for i, pair in enumerate(pairs):
        assert abs(model.start[i] - true_start[pair]) < 4 * np.sqrt(model.cov[i][0, 0])
        for j in range(len(moves)):
            if j in model.relevant[i]:
                truth = true_effect.get((pair, j), 0.0)
                assert abs(model.effect[i, j] - truth) < 4 * model.se(i, j)
            else:  # the move is a third fighter's: it cannot change this pairing's fights
                assert owners[j] not in pair and model.effect[i, j] == 0.0
    # the packs share their seeds: the fitted start counts as one pack's fights beside
    # independent readings of the start, while the effects stay the fit's
    table = {f"{a}|{b}": 0.5 for a, b in pairs}
    with_base = design.fit(moves, owners, packs, pairs, scores, [(table, 12000)])
    assert with_base.start == pytest.approx((model.start + 3 * 0.5) / 4)
    assert np.array_equal(with_base.effect, model.effect)
    assert with_base.cov[0][0, 0] < model.cov[0][0, 0]
    mean, var = model.predict(["curie.life=12"])
    assert mean[0] == pytest.approx(model.start[0] + model.effect[0, 1])
    assert np.all(var > 0)


def test_quick_chance__a_score_predicted_past_1_is_a_sure_miss_without_a_warning():
    """Effects add: a combination of large moves (a life point reads ±0.17 under greedy) may
    predict a pairing past 1; its chance is then ~0, and numpy divides by no zero."""
    pairs = [("zorro", "curie"), ("zorro", "mulan"), ("curie", "mulan")]
    fighters = ["zorro", "curie", "mulan"]
    zeros = np.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fair = design.quick_chance([np.full(3, 0.5)], [zeros], pairs, fighters, 200)
        past = design.quick_chance([np.array([1.02, 0.5, 0.5])], [zeros], pairs, fighters, 200)
    assert 0.5 < fair < 1.0
    assert past == pytest.approx(0.0, abs=1e-12)


def test_a_value_made_too_strong_on_purpose_is_read_and_its_undoing_proposed(tmp_path):
    # Curie's life bar 11 -> 12 on purpose: the design reads undoing it as her nerf and
    # proposes it first; a move of a card that hardly matters is not proposed with it
    strong = tmp_path / "strong.toml"
    strong.write_text(with_values(SCREENED2.read_text("utf-8"), ["curie.life=12"]), "utf-8")
    moves = ["curie.life=11", "zorro.capa.damage=3"]
    args = ["--start", str(strong), "--fighters", "zorro,curie", "--runs", "8", "--share", "0.5"]
    args += ["--fights", "40", "--seed", "3", "--max-moves", "2", "--json"]
    done = run(*args, *[a for m in moves for a in ("--move", m)])
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    life = out["effects"]["greedy"]["curie.life=11"]
    assert life["fighter"] == "curie" and life["effect"] < -0.15
    assert abs(out["effects"]["greedy"]["zorro.capa.damage=3"]["effect"]) < 0.1
    best = out["proposals"][0]
    assert best["moves"] == ["curie.life=11"]
    start = next(p for p in out["proposals"] if p["moves"] == [])
    assert best["chance"] > start["chance"]
    before = start["predicted"]["greedy"]["matchups"]["zorro|curie"]
    after = best["predicted"]["greedy"]["matchups"]["zorro|curie"]
    assert before < 0.4 and abs(after - 0.5) < abs(before - 0.5)


def test_merge__designs_on_other_seeds_read_as_one_fit():
    """Two designs of one start (other seeds, partly other moves) merged: each move's
    effect from the designs that read it, weighted by their precision; the start the mean
    of the designs' starts and the base tables, by the fights behind each."""
    pairs = [("zorro", "curie")]
    truth = {"zorro.amague.damage=3": 0.10, "curie.life=12": -0.20, "zorro.ultra_at=3": 0.05}

    def read(moves: list[str], seed: int, fights: int) -> design.Model:
        packs = design.plan(moves, 12, 0.5, seed=seed)
        rng = np.random.default_rng(seed)
        scores = {}
        for run_, sets in enumerate(packs):
            p = 0.40 + sum(truth[m] for m in sets)
            scores[(run_, *pairs[0])] = list((rng.random(fights) < p).astype(float))
        owners = [design.owner(m, ["zorro", "curie"]) for m in moves]
        return design.fit(moves, owners, packs, pairs, scores)

    one = read(["zorro.amague.damage=3", "curie.life=12"], 1, 3000)
    other = read(["zorro.amague.damage=3", "zorro.ultra_at=3"], 2, 1000)
    table = ({"zorro|curie": 0.40}, 6000)
    both = design.merge([one, other], [table])
    assert both.moves == ["zorro.amague.damage=3", "curie.life=12", "zorro.ultra_at=3"]
    weights = [one.weight[0], other.weight[0], 6000]
    reads = [one.start[0], other.start[0], 0.40]
    assert both.start[0] == pytest.approx(np.dot(weights, reads) / sum(weights))
    a, b = one.se(0, 0) ** -2, other.se(0, 0) ** -2
    assert both.effect[0, 0] == pytest.approx(
        (a * one.effect[0, 0] + b * other.effect[0, 0]) / (a + b)
    )
    assert both.se(0, 0) < min(one.se(0, 0), other.se(0, 0))
    assert both.effect[0, 1] == pytest.approx(one.effect[0, 1])  # read by one design alone
    assert both.effect[0, 2] == pytest.approx(other.effect[0, 1])
    for j, move in enumerate(both.moves):
        assert abs(both.effect[0, j] - truth[move]) < 4 * both.se(0, j)
    mean, var = both.predict(["curie.life=12", "zorro.ultra_at=3"])
    assert mean[0] == pytest.approx(both.start[0] + both.effect[0, 1] + both.effect[0, 2])
    assert var[0] > 0


def test_save_then_load_fits_the_same_report(tmp_path):
    saved = tmp_path / "raw.json"
    common = ["--max-moves", "1", "--trials", "200", "--json"]
    played = run(
        "--fighters", "zorro,curie", "--move", "zorro.ultra_at=3", "--runs", "4", "--share",
        "0.5", "--fights", "6", "--seed", "9", "--save", str(saved), *common,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    loaded = run("--load", str(saved), *common)
    assert loaded.returncode == 0, loaded.stderr
    assert json.loads(loaded.stdout) == json.loads(played.stdout)
    twice = run("--load", str(saved), "--load", str(saved))
    assert twice.returncode == 2 and "two files of greedy were played on one --seed" in twice.stderr
    saved.write_text("{}", encoding="utf-8")
    broken = run("--load", str(saved))
    assert broken.returncode == 2 and "not a rivales_design.py --save file" in broken.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--move", "zorro.ultra_at=x"], "bad --move 'zorro.ultra_at=x'"),
        (["--move", "zorro.nothing=3"], "zorro.nothing is no integer value of the pack"),
        (["--move", "zorro.ultra_at=99"], "field 'ultra_at'"),
        (["--move", "mulan.life=9", "--fighters", "zorro,curie"], "not a value of one of"),
        (["--move", "basic.golpe.speed=3"], "a basic card is every fighter's"),
        (["--move", "zorro.life=8", "--move", "zorro.life=10"], "one --move a field: zorro.life"),
        (["--move", "zorro.life=8", "--runs", "1"], "need --runs >= 2"),
        (["--move", "zorro.life=8", "--agent", "nobody"], "unknown agent 'nobody'"),
        (["--load", "missing.json"], "--load missing.json"),
        ([], "give at least one --move"),
    ],
)
def test_bad_input_is_one_line_naming_it(args, words):
    bad = run(*args)
    assert bad.returncode == 2 and words in bad.stderr and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()[-1]) < 200
