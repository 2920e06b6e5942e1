"""Self-play with sb3-contrib's MaskablePPO: the learner trains against a pool of its own
snapshots (kumite.envs.selfplay), then is measured against its first snapshot and kumite's
bots, with 95% intervals.

    pip install 'kumite[rl,examples]'
    python examples/selfplay_maskable_ppo.py [--game sfrivals] [--steps 30000] [--seed 0]
        [--api gymnasium|pettingzoo] [--priority uniform|hard|even] [--eval-games 400]
        [--against random,greedy] [--baselines random,greedy] [--save model.zip] [--json]

Every run with the same arguments and seed trains the same network and prints the same
figures (one CPU thread; the seeds of SB3, the environments and the evaluations are fixed).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import DummyVecEnv

from kumite.envs.selfplay import SelfPlay, evaluate


class Frozen:
    """A frozen copy of a MaskablePPO policy as a kumite ``Policy`` (observation and mask
    to an action id): what goes into the pool, and what is evaluated."""

    def __init__(self, model: MaskablePPO, deterministic: bool = False) -> None:
        # a new network with the learner's weights (a deepcopy of the training network
        # would copy tensors of the step under way)
        self.net = model.policy_class(
            model.observation_space, model.action_space, model.lr_schedule, **model.policy_kwargs
        )
        self.net.load_state_dict(model.policy.state_dict())
        self.net.set_training_mode(False)
        self.deterministic = deterministic

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = self.net.predict(
            observation, action_masks=mask, deterministic=self.deterministic
        )
        return int(action)


class Snapshots(BaseCallback):
    """Every ``every`` steps, the learner's current policy joins the pool."""

    def __init__(self, selfplay: SelfPlay, every: int) -> None:
        super().__init__()
        self.selfplay, self.every = selfplay, every

    def _on_step(self) -> bool:
        if self.num_timesteps % self.every < self.training_env.num_envs:
            # Frozen is already a copy: add it as it is
            self.selfplay.pool.add(Frozen(self.model), f"snapshot-{self.num_timesteps}")
        return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sfrivals")
    parser.add_argument("--options", default="{}", help="kumite options as JSON")
    parser.add_argument("--steps", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--api", choices=("gymnasium", "pettingzoo"), default="gymnasium")
    parser.add_argument("--priority", choices=("uniform", "hard", "even"), default="hard")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--snapshot-every", type=int, default=5_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--against", default="random,greedy", help="kumite bots to measure")
    parser.add_argument(
        "--baselines", default="", help="kumite bots kept in the pool beside the snapshots"
    )
    parser.add_argument("--save", default=None, help="save the trained model here")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    options = json.loads(args.options)

    torch.set_num_threads(1)
    set_random_seed(args.seed)
    baselines = [name for name in args.baselines.split(",") if name]
    selfplay = SelfPlay(baselines, priority=args.priority, max_size=20)

    def make() -> Any:
        if args.api == "pettingzoo":
            return selfplay.pettingzoo(args.game, options, normalize=True)
        return selfplay.gymnasium(args.game, options, normalize=True)

    envs = DummyVecEnv([make] * args.envs)
    envs.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=256,
        batch_size=256,
        n_epochs=4,
        learning_rate=1e-3,
        gamma=1.0,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        device="cpu",
    )
    first = Frozen(model)
    selfplay.pool.add(first, "snapshot-0")
    started, cpu = time.perf_counter(), time.process_time()
    model.learn(args.steps, callback=Snapshots(selfplay, args.snapshot_every))
    trained, trained_cpu = time.perf_counter() - started, time.process_time() - cpu
    if args.save:
        model.save(args.save)

    learner = Frozen(model, deterministic=True)
    results: dict[str, Any] = {
        "game": args.game,
        "options": options,
        "steps": args.steps,
        "seed": args.seed,
        "api": args.api,
        "priority": args.priority,
        "baselines": baselines,
        "train_seconds": round(trained, 1),
        "train_cpu_seconds": round(trained_cpu, 1),
        "pool": selfplay.pool.table(),
        "against": {},
    }
    set_random_seed(args.seed + 1)
    opponents: dict[str, Any] = {"snapshot-0": first}
    for name in filter(None, args.against.split(",")):
        opponents[name] = name
    for name, opponent in opponents.items():
        measured = evaluate(
            learner,
            args.game,
            opponent,
            args.eval_games,
            options,
            seed=10_000 + args.seed,
            normalize=True,
        )
        results["against"][name] = {
            "games": measured.games,
            "wins": measured.wins,
            "draws": measured.draws,
            "losses": measured.losses,
            "mean": measured.mean,
            "mean_95": [measured.mean_low, measured.mean_high],
            "win_rate": measured.win_rate,
            "win_rate_95": [measured.win_low, measured.win_high],
        }
        if not args.json:
            print(f"against {name}: {measured}")
    if args.json:
        print(json.dumps(results))
    else:
        print(
            f"trained {args.steps} steps in {trained:.0f} s ({trained_cpu:.0f} s of CPU; "
            f"{args.api}, seed {args.seed})"
        )


if __name__ == "__main__":
    main()
