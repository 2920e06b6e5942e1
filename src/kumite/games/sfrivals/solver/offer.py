"""What listings, the lobby and the web table say of SF Rivals' solver bots — each one's
version, its certified figure, and whether the web table offers it — found without loading
a solver (:mod:`.known`: no Numba in a server that serves no solver bot).

**Versions.** A solver bot plays what its code does with the solutions it reads, so its
version is ``<name>/<behaviour>/<solver version>/<shipped solutions>``: the behaviour's
version is bumped by hand whenever the bot plays differently (its pinned games in
``tests/agents/test_versions.py`` fail otherwise); the last part is a digest of the shipped
table. Books (:mod:`.book`) only make a bot faster — tested to play the same — and are not
part of it.

**Offered at the web table** only where every matchup the table's options allow is solved
already, shipped or cached: a table never waits for a matchup to be solved (issue 28). The
base pack under the default rules ships all 64.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.games.sfrivals.solver.known import (
    SOLVER_VERSION,
    _with_characters,
    all_known,
    data_digest,
    known_summary,
)

BOUNDED_VERSION = "bounded-1"
"""``bounded``'s (and ``equilibrium``'s, where it plays ``bounded``) behaviour."""
BELIEF_VERSION = "belief-2"
"""``belief``'s and ``belief-safe``'s behaviour."""
EXACT_VERSION = "equilibrium-exact-1"
"""The exact equilibrium's behaviour (a small variant's LP)."""
EQUILIBRIUM_AT_MOST = 0.05
"""The certified exploitability (NashConv / 2, win +1 / loss -1) below which a strategy may
be called an equilibrium."""
_CODE = {
    "bounded": BOUNDED_VERSION,
    "equilibrium": BOUNDED_VERSION,
    "belief": BELIEF_VERSION,
    "belief-safe": BELIEF_VERSION,
}


def version(name: str) -> str:
    """Solver bot ``name``'s version (see the module)."""
    return f"{name}/{_CODE[name]}/{SOLVER_VERSION}/{data_digest()}"


def _public(options: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k != "characters"}


def _matchup(options: Mapping[str, Any]) -> tuple[str, str] | None:
    chars = options.get("characters")
    if not chars or None in chars:
        return None
    return (str(chars[0]), str(chars[1]))


def certified_exploitability(
    characters: tuple[str, str], options: Mapping[str, Any]
) -> float | None:
    """The solver's strategy's certified exploitability in a matchup (half its certified
    interval), from a solution already at hand; None if none."""
    found = known_summary(characters, _with_characters(_public(options), characters))
    if found is None:
        return None
    return (float(found["upper"]) - float(found["lower"])) / 2.0


def not_offered(name: str, options: Mapping[str, Any]) -> str | None:
    """Why the web table does not offer solver bot ``name`` under ``options`` (None: it
    does): every matchup the options allow must be solved already; ``equilibrium`` also
    needs its matchup fixed and certified within :data:`EQUILIBRIUM_AT_MOST`."""
    chars = _matchup(options)
    if name == "equilibrium":
        if chars is None:
            return "equilibrium needs the matchup fixed: its certificate is per matchup"
        figure = certified_exploitability(chars, options)
        if figure is None or figure > EQUILIBRIUM_AT_MOST:
            return (
                f"no strategy for {chars[0]} vs {chars[1]} is certified within "
                f"{EQUILIBRIUM_AT_MOST} of an equilibrium"
            )
        return None
    wanted = {**_public(options), "characters": list(chars)} if chars else _public(options)
    try:
        if all_known(wanted):
            return None
    except (ValueError, KeyError) as exc:
        return f"{name}: {exc}"
    return (
        f"{name} needs the matchups of these options solved first (kumite solve sfrivals): "
        "only the base pack under the default rules ships solved"
    )


def _small_variant(characters: tuple[str, str], options: Mapping[str, Any]) -> bool:
    """The matchup's whole hidden-cover game is small enough to solve exactly (counted only
    for characters of few kinds of card: the full ones are far beyond)."""
    from kumite.games.sfrivals.game import GAME
    from kumite.games.sfrivals.solver.hidden import histories

    try:
        opts = GAME.parse_options({**_public(options), "characters": list(characters)})
        cat = GAME.catalog(opts)
        if max(len(cat.characters[c].cards) for c in characters) > 4:
            return False
        return histories(characters, _public(options), stop_above=500_000) <= 500_000
    except (ValueError, KeyError):  # pragma: no cover - unknown characters fail earlier
        return False


def _info(name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    chars = _matchup(options)
    reason = not_offered(name, options)
    figure = None if chars is None else certified_exploitability(chars, options)
    return {
        "version": version(name),
        "certified_exploitability": figure if name in ("bounded", "equilibrium") else None,
        "matchup": None if chars is None else list(chars),
        "offered": reason is None,
        "not_offered": reason,
    }


def bounded_info(options: Mapping[str, Any]) -> dict[str, Any]:
    """``bounded``: its version, its certified figure in the matchup ``options`` fix (None
    when the characters are not fixed or the matchup not solved), whether the table offers
    it, and whether ``equilibrium`` exists in that matchup."""
    out = _info("bounded", options)
    chars = _matchup(options)
    if chars is not None:
        figure = out["certified_exploitability"]
        out["equilibrium_available"] = (
            figure is not None and figure <= EQUILIBRIUM_AT_MOST
        ) or _small_variant(chars, options)
    return out


def equilibrium_info(options: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`bounded_info` for ``equilibrium``."""
    return {**bounded_info(options), **_info("equilibrium", options)}


def belief_info(options: Mapping[str, Any]) -> dict[str, Any]:
    """``belief``: its version and whether the table offers it (no certified figure: it
    answers a model of its opponent, not a worst case)."""
    return _info("belief", options)


def belief_safe_info(options: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`belief_info` for ``belief-safe``."""
    return _info("belief-safe", options)
