"""What is solved already, found without loading a solver (no Numba, no solution object):
the keys and files of the cache (``$KUMITE_CACHE_DIR``) and of the shipped table
(:data:`SHIPPED`). The web table asks it which solver bots it may offer, and a solver
bot's version names the shipped table it reads (:mod:`.offer`)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import platformdirs

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.options import Options

SOLVER_VERSION = "sfr-bounds-2"


SHIPPED = "solved-base.json.gz"
"""Solved matchups shipped with kumite (method tight, the base pack and default rules;
``python -m kumite.games.sfrivals.solver.ship`` writes it from the cache):
``kumite.games.sfrivals.solver/<this>``. Where it is absent, nothing ships."""


@functools.lru_cache(maxsize=1)
def _shipped_text() -> str | None:
    """The shipped file's text (4.6 MB), read once."""
    import gzip
    from importlib import resources

    res = resources.files("kumite.games.sfrivals.solver") / SHIPPED
    if not res.is_file():
        return None
    return gzip.decompress(res.read_bytes()).decode("utf-8")


def _as_dict(options: Options | dict[str, Any] | None) -> dict[str, Any]:
    if options is None:
        return {}
    if isinstance(options, Options):
        return GAME.options_to_json(options)
    return dict(options)


def _with_characters(
    options: Options | dict[str, Any] | None, characters: tuple[str, str]
) -> Options:
    """``options`` parsed with the matchup's ``characters``."""
    if isinstance(options, Options):
        return _parsed_with(options, characters)
    raw = _as_dict(options)
    try:
        return _parsed_json(json.dumps(raw, sort_keys=True), characters)
    except TypeError:  # options JSON cannot say (a tuple of lists, say): parse them
        return GAME.parse_options({**raw, "characters": list(characters)})


@functools.lru_cache(maxsize=1024)
def _parsed_json(raw: str, characters: tuple[str, str]) -> Options:
    return GAME.parse_options({**json.loads(raw), "characters": list(characters)})


@functools.lru_cache(maxsize=1024)
def _parsed_with(options: Options, characters: tuple[str, str]) -> Options:
    return GAME.parse_options({**_as_dict(options), "characters": list(characters)})


# -- cache ------------------------------------------------------------------------------------
def cache_dir() -> Path:
    """``$KUMITE_CACHE_DIR`` or the platform's user cache directory for kumite."""
    root = os.environ.get("KUMITE_CACHE_DIR") or platformdirs.user_cache_dir("kumite")
    return Path(root) / "sfrivals-solutions"


@functools.lru_cache(maxsize=4096)
def cache_key(characters: tuple[str, str], opts: Options, method: str = "tight") -> str:
    """Pack sha256 + rule options + characters + method + solver version (kept: agents ask
    it at every move)."""
    pack = GAME.pack_ref(opts)
    rules = {k: v for k, v in GAME.options_to_json(opts).items() if k not in ("pack", "characters")}
    blob = json.dumps(
        {
            "pack": pack.get("sha256"),
            "rules": rules,
            "chars": list(characters),
            "method": method,
            "v": SOLVER_VERSION,
        },
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def cache_path(characters: tuple[str, str], opts: Options, method: str = "tight") -> Path:
    key = cache_key(characters, opts, method)
    return cache_dir() / f"{characters[0]}-{characters[1]}-{key}"


def is_known(characters: tuple[str, str], opts: Options) -> bool:
    """:func:`known_solution` would find the matchup (method tight), reading no solution:
    a cache file or the shipped table has it or its seat swap."""
    for pair in {characters, (characters[1], characters[0])}:
        pair_opts = opts if pair == characters else _with_characters(opts, pair)
        if cache_key(pair, pair_opts) in _shipped_keys():
            return True
        if cache_path(pair, pair_opts).with_suffix(".json").exists():
            return True
    return False


@functools.lru_cache(maxsize=1)
def _shipped_keys() -> frozenset[str]:
    """The keys of the shipped matchups."""
    import re

    text = _shipped_text()
    return frozenset(re.findall(r'\["([0-9a-f]{32})", \{', text or ""))


def all_known(options: Options | dict[str, Any] | None) -> bool:
    """Every ordered matchup the options allow is known (their characters, when both are
    fixed; else every pair of the pack's characters). A lobby asks it for every bot at
    every listing: an answer is kept :data:`KNOWN_FOR` seconds."""
    raw = _as_dict(options)
    try:
        memo_key = (json.dumps(raw, sort_keys=True), str(cache_dir()))
    except TypeError:
        memo_key = None
    now = time.monotonic()
    if memo_key is not None:
        found = _ALL_KNOWN.get(memo_key)
        if found is not None and now - found[0] < KNOWN_FOR:
            return found[1]
    chars = raw.get("characters")
    base = {k: v for k, v in raw.items() if k != "characters"}
    if chars and None not in chars:
        pairs = [(str(chars[0]), str(chars[1]))]
    else:
        names = list(GAME.catalog(GAME.parse_options(base)).characters)
        pairs = [(a, b) for a in names for b in names]
    answer = all(is_known(pair, _with_characters(base, pair)) for pair in pairs)
    if memo_key is not None:
        if len(_ALL_KNOWN) > 256:
            _ALL_KNOWN.clear()
        _ALL_KNOWN[memo_key] = (now, answer)
    return answer


KNOWN_FOR = 30.0
_ALL_KNOWN: dict[tuple[str, str], tuple[float, bool]] = {}


def data_digest() -> str:
    """What the shipped solutions are, in 12 hex digits (part of a solver bot's version:
    its behaviour follows from its code and the solutions it reads)."""
    text = _shipped_text()
    if text is None:
        return "none"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def shipped_summary(
    characters: tuple[str, str], opts: Options, method: str = "tight"
) -> dict[str, Any] | None:
    """The shipped summary of the matchup (as :func:`.setup.full_summary` writes it), if
    this pack, rules and method are the ones shipped, else None."""
    text = _shipped_text()
    if text is None:
        return None
    wanted = cache_key(characters, opts, method)
    # Only that matchup's summary is parsed (the file's 36 take ~60 MB as Python objects):
    # the file lists [key, summary] pairs, and a key is a hash, found once in the text.
    at = text.find(f'["{wanted}", ')
    if at < 0:
        return None
    entry, _ = json.JSONDecoder().raw_decode(text, at)
    summary: dict[str, Any] = entry[1]
    return summary


def known_summary(characters: tuple[str, str], opts: Options) -> dict[str, Any] | None:
    """The summary of the matchup (method tight) or of its seat swap, from the cache or
    the shipped table, with its ``lower``/``upper`` in this seat order."""
    for pair in dict.fromkeys([characters, (characters[1], characters[0])]):
        pair_opts = opts if pair == characters else _with_characters(opts, pair)
        found = shipped_summary(pair, pair_opts)
        if found is None:
            path = cache_path(pair, pair_opts).with_suffix(".json")
            try:
                found = json.loads(path.read_text()) if path.exists() else None
            except (OSError, ValueError):
                found = None
            if found is not None and found.get("solver_version") != SOLVER_VERSION:
                found = None
        if found is not None:
            if pair != characters:
                found = {**found, "lower": -found["upper"], "upper": -found["lower"]}
            return found
    return None
