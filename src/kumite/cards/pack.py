"""Card packs: TOML files validated into frozen objects.

This module is game-agnostic. It reads a pack, merges a user's overlay pack over it, splits
each card's values from their provenance and reports errors naming file, card and field.
Each game then converts the plain values with its own schema (see :func:`convert`).

Pack layout (see ``docs/packs.md``)::

    [pack]                       # id, game, version, title; ``base`` in an overlay
    [pack.provenance]            # default provenance per card field
    [sources]                    # source key -> citation
    [rules]                      # rule values, each may carry provenance
    [[characters]] / [[cards]]   # lists of tables keyed by ``id``

A value with its own provenance is written ``{ value = 3, from = "source:TF", note = "..." }``.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import functools
import hashlib
import json
import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from kumite.cards.provenance import Provenance
from kumite.core.errors import PackError

T = TypeVar("T")

#: Top-level arrays of tables merged by ``id`` when an overlay is applied.
KEYED_LISTS = ("cards", "characters", "heroes", "fighters", "stages")
_SINGULAR = {
    "cards": "card",
    "characters": "character",
    "heroes": "hero",
    "fighters": "fighter",
    "stages": "stage",
}

_PATH_RE = re.compile(r"at `\$\.?([^`]*)`")


@dataclasses.dataclass(frozen=True)
class PackData:
    """A parsed (and possibly merged) pack before game-specific conversion."""

    name: str
    """Where it came from, for error messages (file name or ``base+overlay``)."""
    data: dict[str, Any]

    @property
    def meta(self) -> dict[str, Any]:
        meta = self.data.get("pack", {})
        return meta if isinstance(meta, dict) else {}

    @property
    def id(self) -> str:
        return str(self.meta.get("id", "?"))

    @property
    def version(self) -> str:
        return str(self.meta.get("version", "?"))

    @property
    def defaults(self) -> dict[str, str]:
        """``[pack.provenance]``: the default provenance of each card field."""
        return {str(k): str(v) for k, v in self.meta.get("provenance", {}).items()}

    @property
    def sources(self) -> dict[str, str]:
        src = self.data.get("sources", {})
        return {str(k): str(v) for k, v in src.items()} if isinstance(src, dict) else {}

    def sha256(self) -> str:
        canonical = json.dumps(self.data, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(canonical.encode()).hexdigest()

    def ref(self) -> dict[str, str]:
        return {"id": self.id, "version": self.version, "sha256": self.sha256()}


def parse_toml(text: str, name: str) -> PackData:
    """Parse TOML text into :class:`PackData`; a syntax error names the file and line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PackError(name, f"invalid TOML: {exc}") from None
    _check_shape(data, name)
    return PackData(name, data)


def read_pack(path: str | Path) -> PackData:
    """Read a pack file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PackError(str(path), f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PackError(str(path), "not UTF-8 text") from None
    return parse_toml(text, p.name)


def _check_shape(data: dict[str, Any], name: str) -> None:
    pack = data.get("pack")
    if not isinstance(pack, dict):
        raise PackError(name, "missing [pack] table (id, game, version)")
    for key in ("id", "game"):
        if not isinstance(pack.get(key), str) or not pack.get(key):
            raise PackError(name, f"[pack] needs a string {key!r}")
    for key in KEYED_LISTS:
        items = data.get(key)
        if items is None:
            continue
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise PackError(name, f"{key!r} must be an array of tables ([[{key}]])")
        seen: set[str] = set()
        for position, item in enumerate(items, start=1):
            ident = item.get("id")
            if not isinstance(ident, str) or not ident:
                raise PackError(name, f"{key} entry #{position} has no string 'id'")
            if ident in seen:
                raise PackError(name, f"duplicate id in {key}", card=ident)
            seen.add(ident)


def merge(
    base: PackData,
    overlay: PackData,
    valued: Collection[str] = (),
    schemas: Mapping[str, type[Any]] | None = None,
) -> PackData:
    """Merge ``overlay`` over ``base``: entries of keyed lists by ``id`` (field by field),
    tables recursively, other values replaced. Overlay values of the ``valued`` fields
    without explicit provenance get the overlay's ``[pack.provenance]`` default, else
    ``source:<overlay id>`` (the user's own cards are their source).

    The overlay may cite the sources of its own ``[sources]`` and of its base's. An overlay
    entry whose id is not in the base adds an entry, so it must be complete: with
    ``schemas`` (keyed list -> the game's msgspec schema of an entry), an incomplete one is
    taken for a typo and refused, naming the closest ids of the base."""
    if overlay.meta.get("game") != base.meta.get("game"):
        raise PackError(
            overlay.name,
            f"pack is for game {overlay.meta.get('game')!r}, not {base.meta.get('game')!r}",
        )
    wanted = overlay.meta.get("base")
    if wanted is not None and wanted != base.id:
        raise PackError(overlay.name, f"overlay is for base pack {wanted!r}, not {base.id!r}")
    out = copy.deepcopy(base.data)
    # "source:<id>" of an overlay (this one or one merged before it) is the user's own word.
    known = {*base.sources, *overlay.sources, *base.meta.get("overlays", []), overlay.id}
    check_sources(overlay, known)
    for key, schema in (schemas or {}).items():
        _check_new_entries(base, overlay, key, schema)
    defaults = overlay.meta.get("provenance", {})
    fallback = f"source:{overlay.id}"
    for key, value in overlay.data.items():
        if key == "pack":
            continue
        if key in KEYED_LISTS:
            entries = {e["id"]: e for e in out.setdefault(key, [])}
            for entry in value:
                marked = {
                    f: _with_provenance(v, defaults.get(f, fallback)) if f in valued else v
                    for f, v in entry.items()
                }
                if entry["id"] in entries:
                    entries[entry["id"]].update(marked)
                else:
                    out[key].append(marked)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            _deep_update(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    out["pack"]["overlays"] = [*out["pack"].get("overlays", []), overlay.id]
    # Errors found in the merged pack name the overlay: the shipped base passes every check
    # on its own, so the overlay is the file to fix.
    return PackData(overlay.name, out)


def check_sources(pack: PackData, known: Collection[str]) -> None:
    """Refuse a ``source:KEY`` provenance whose key is not in ``known``: in a
    ``[pack.provenance]`` default, a ``[rules]`` value or a field of a keyed-list entry."""

    def check(spec: Any, card: str | None, field: str) -> None:
        label, _, ref = str(spec).partition(":")
        if label == "source" and ref and ref not in known:
            listed = ", ".join(sorted(known))
            raise PackError(
                pack.name,
                f"unknown source key {ref!r}: cite one of [sources] ({listed})",
                card=card,
                field=field,
            )

    for field, spec in pack.meta.get("provenance", {}).items():
        check(spec, None, f"pack.provenance.{field}")
    for key, value in pack.data.items():
        if key in ("pack", "sources"):
            continue
        tables: list[tuple[str | None, str, Any]] = []
        if key in KEYED_LISTS:
            tables = [(e.get("id"), "", e) for e in value if isinstance(e, dict)]
        elif isinstance(value, dict):
            tables = [(None, f"{key}.", value)]
        for card, prefix, table in tables:
            for field, raw in table.items():
                if isinstance(raw, dict) and "value" in raw and "from" in raw:
                    check(raw["from"], card, prefix + field)


def _check_new_entries(base: PackData, overlay: PackData, key: str, schema: type[Any]) -> None:
    base_ids = [str(e.get("id")) for e in base.data.get(key, []) if isinstance(e, dict)]
    required = [f.name for f in msgspec.structs.fields(schema) if f.required]
    what = _SINGULAR.get(key, key)
    for entry in overlay.data.get(key, []):
        if entry["id"] in base_ids:
            continue
        missing = [f for f in required if f not in entry]
        if not missing:
            continue
        close = difflib.get_close_matches(entry["id"], base_ids, n=3, cutoff=0.6)
        names = [repr(c) for c in close]
        spelled = " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        hint = f"; did you mean {spelled}?" if close else ""
        raise PackError(
            overlay.name,
            f"{what} {entry['id']!r} does not exist in base pack {base.id!r}{hint} "
            f"(a new {what} needs {', '.join(missing)})",
        )


def _with_provenance(value: Any, spec: str) -> Any:
    if isinstance(value, dict) and "value" in value:
        return value
    return {"value": value, "from": spec}


def _deep_update(target: dict[str, Any], source: Mapping[str, Any]) -> None:
    for k, v in source.items():
        if isinstance(v, dict) and isinstance(target.get(k), dict) and "value" not in v:
            _deep_update(target[k], v)
        else:
            target[k] = copy.deepcopy(v)


def split_values(
    table: Mapping[str, Any],
    *,
    pack: str,
    card: str | None,
    valued: Iterable[str],
    defaults: Mapping[str, str],
) -> tuple[dict[str, Any], dict[str, Provenance]]:
    """Separate a card table's plain values from their provenance.

    Fields in ``valued`` must have a provenance, explicit or from ``defaults``; other fields
    must be plain values.
    """
    values: dict[str, Any] = {}
    prov: dict[str, Provenance] = {}
    valued = set(valued)
    for field, raw in table.items():
        explicit = isinstance(raw, dict) and "value" in raw
        if explicit:
            extra = set(raw) - {"value", "from", "note"}
            if extra:
                raise PackError(pack, f"unknown keys {sorted(extra)}", card=card, field=field)
            values[field] = raw["value"]
        else:
            values[field] = raw
        if field not in valued:
            if explicit:
                raise PackError(pack, "this field carries no provenance", card=card, field=field)
            continue
        spec = raw.get("from") if explicit else None
        spec = spec if spec is not None else defaults.get(field)
        if spec is None:
            raise PackError(
                pack,
                "no provenance: add 'from' or a [pack.provenance] default",
                card=card,
                field=field,
            )
        try:
            prov[field] = Provenance.parse(str(spec), raw.get("note") if explicit else None)
        except ValueError as exc:
            raise PackError(pack, str(exc), card=card, field=field) from None
    return values, prov


def convert(values: Mapping[str, Any], schema: type[T], *, pack: str, card: str | None) -> T:
    """Convert plain values with a msgspec schema; errors name the field."""
    try:
        return msgspec.convert(values, schema)
    except msgspec.ValidationError as exc:
        message = str(exc)
        match = _PATH_RE.search(message)
        field = match.group(1) if match else None
        if field is None:
            unknown = re.search(r"unknown field `([^`]*)`", message)
            missing = re.search(r"missing required field `([^`]*)`", message)
            found = unknown or missing
            field = found.group(1) if found else None
        message = _PATH_RE.sub("", message).strip(" -")
        raise PackError(pack, message, card=card, field=field or None) from None


def read_rules(pack: PackData, schema: type[T]) -> tuple[T, dict[str, Provenance]]:
    """The pack's ``[rules]`` (each value from the rulebook unless marked) and their
    provenance; an error names the field as written, ``rules.<field>``."""
    raw = pack.data.get("rules", {})
    if not isinstance(raw, dict):
        raise PackError(pack.name, "[rules] must be a table")
    try:
        values, prov = split_values(
            raw, pack=pack.name, card=None, valued=raw, defaults=dict.fromkeys(raw, "rulebook")
        )
        return convert(values, schema, pack=pack.name, card=None), prov
    except PackError as exc:
        field = "rules" if exc.field is None else f"rules.{exc.field}"
        raise PackError(pack.name, exc.message, field=field) from None


C = TypeVar("C")


class PackLoader(Generic[C]):
    """One game's card data: its shipped ``packs/base.toml``, a user's overlay merged over
    it, compiled by the game into its catalog. Cached: the base catalog for good, and an
    overlay's catalog while it is among the last 32 overlays loaded: the same pack text
    gives the same (immutable) catalog object; an overlay loaded again after that gives an
    equal catalog of new objects (cards compare by identity: whoever keeps one must not mix
    it with another). The base is never evicted, so a search over many overlays (a balance
    run) does not make a second base catalog beside the one every default game holds."""

    def __init__(
        self,
        package: str,
        compile: Callable[[PackData], C],
        valued: Collection[str],
        schemas: Mapping[str, type[Any]] | None = None,
    ) -> None:
        self.package = package
        self.compile = compile
        self.valued = tuple(valued)
        self.schemas = dict(schemas or {})
        """Keyed list -> the msgspec schema of an entry: an overlay's new entry missing a
        required field is taken for a misspelt id (see :func:`merge`)."""
        self.base = functools.cache(self._base)
        self._base_catalog = functools.cache(lambda: self.compile(self.base()))
        self._cached = functools.lru_cache(maxsize=32)(self._load)

    def load(self, overlay_text: str | None = None, name: str = "overlay") -> C:
        """The base catalog, or the base merged with an overlay pack given as TOML text;
        however called, the same pack gives the same catalog object (an overlay's while
        cached)."""
        if overlay_text is None:
            return self._base_catalog()
        return self._cached(overlay_text, name)

    def _base(self) -> PackData:
        text = (resources.files(self.package) / "packs" / "base.toml").read_text("utf-8")
        return parse_toml(text, f"{self.package.rpartition('.')[2]}/packs/base.toml")

    def _load(self, overlay_text: str, name: str) -> C:
        pack = merge(self.base(), parse_toml(overlay_text, name), self.valued, self.schemas)
        return self.compile(pack)

    def read_overlay(self, path: str | Path) -> str:
        """Read and validate an overlay pack file — or, where no such file exists, an overlay
        the game ships, by name (``mini``: its ``packs/mini.toml``); return its text (stored
        in game options)."""
        p = Path(path)
        shipped = resources.files(self.package) / "packs" / f"{p.name}.toml"
        if str(path) == p.name != "base" and not p.exists() and shipped.is_file():
            text = shipped.read_text("utf-8")
            self.load(text, f"{p.name}.toml")
            return text
        read_pack(p)  # unreadable file or bad TOML: an error naming the file
        text = p.read_text(encoding="utf-8")
        self.load(text, p.name)  # bad card: an error naming file, card and field
        return text
