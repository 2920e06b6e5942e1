"""Optional compiled build: ``KUMITE_COMPILE=1`` compiles the SF DBG engine with mypyc.

Without it (the default, and every editable install) kumite is pure Python. With it, the
modules below become C extensions with the same behaviour, about 2.5 times faster in
simulation; see docs/speed.md. Metadata lives in pyproject.toml.
"""

from __future__ import annotations

import os

from setuptools import setup

#: Modules on the hot path of a simulated SF DBG game, and of Rivales' clash and its lookahead
#: (``greedy``'s fast path): Rivales' engine core (``engine.Engine``; its state, the game
#: contract, stays a plain Python class: docs/speed.md), its card records, decisions, lines,
#: clash, rounds, phases, effects and views. SF Rivals is not compiled. Left out on purpose: the
#: contract (``core.game``: every game and test game subclasses its classes, which must stay
#: plain Python classes), msgspec structs (options, schemas), events (never built in quiet
#: simulation), exceptions (multiple inheritance) and everything the CLI, server and solvers
#: use once per game. ``core.rng`` is in for its draw helpers (each shuffle and random choice
#: calls them); its ``Rng``, a subclass of ``random.Random``, stays a plain Python class.
#: ``core.memo`` is in so that the compiled modules look their memo tables up as dicts.
COMPILED = [
    "src/kumite/core/decision.py",
    "src/kumite/core/memo.py",
    "src/kumite/core/rng.py",
    "src/kumite/agents/runner.py",
    "src/kumite/agents/uniform.py",
    "src/kumite/games/sfdbg/attack.py",
    "src/kumite/games/sfdbg/cards.py",
    "src/kumite/games/sfdbg/choices.py",
    "src/kumite/games/sfdbg/effects.py",
    "src/kumite/games/sfdbg/engine.py",
    "src/kumite/games/sfdbg/machine.py",
    "src/kumite/games/sfdbg/scoring.py",
    "src/kumite/games/sfdbg/turn.py",
    "src/kumite/games/sfdbg/view.py",
    "src/kumite/games/rivales/records.py",
    "src/kumite/games/rivales/decisions.py",
    "src/kumite/games/rivales/lines.py",
    "src/kumite/games/rivales/fight.py",
    "src/kumite/games/rivales/engine.py",
    "src/kumite/games/rivales/effects.py",
    "src/kumite/games/rivales/clash.py",
    "src/kumite/games/rivales/rounds.py",
    "src/kumite/games/rivales/phases.py",
    "src/kumite/games/rivales/lookahead.py",
    "src/kumite/games/rivales/view.py",
    "src/kumite/games/rivales/bots/greedy.py",
]

ext_modules = []
if os.environ.get("KUMITE_COMPILE") == "1":
    from mypyc.build import mypycify

    # The project's mypy settings apply; only the note on overrides for modules outside this
    # list (which mypyc would count as an error) is turned off.
    ext_modules = mypycify(["--no-warn-unused-configs", *COMPILED], opt_level="3")

setup(ext_modules=ext_modules)
