"""The base of games whose cards come from packs: options, catalog and pack identity."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Generic, TypeVar, cast

import msgspec

from kumite.cards.pack import PackLoader
from kumite.core.errors import KumiteError, OptionsError
from kumite.core.game import Game
from kumite.core.spec import doc

OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)
#: The ``pack`` option of a pack-backed game.
Pack = Annotated[str | None, doc("A user's overlay pack (TOML text) loaded over the shipped one.")]
CatalogT = TypeVar("CatalogT")


class PackGame(Game[OptionsT], Generic[OptionsT, CatalogT]):
    """A game with msgspec options (``pack``: an overlay's TOML text) and a catalog of
    cards compiled from its packs. Subclasses set :attr:`options_type` and :attr:`packs`
    and add their own checks in :meth:`check`."""

    packs: PackLoader[CatalogT]

    def catalog(self, options: OptionsT | Mapping[str, Any] | None = None) -> CatalogT:
        """The cards in use: the base pack, or the base merged with the options' overlay
        (parsed options, or raw ones as a table or the command line gives them)."""
        parsed: Any = options
        if options is not None and not isinstance(options, self.options_type):
            parsed = self.parse_options(cast("Mapping[str, Any]", options))
        overlay: str | None = None if parsed is None else parsed.pack
        try:
            return self.packs.load(overlay)
        except KumiteError:
            raise
        except Exception as exc:  # pragma: no cover - defensive
            raise OptionsError(f"pack: {exc}") from None

    def pack_catalog(self, path: Path | None) -> CatalogT:
        """The catalog of a user's overlay pack file (``--pack``), else the shipped one."""
        if path is None:
            return self.packs.load()
        return self.packs.load(self.read_overlay(path), Path(path).name)

    def catalog_json(self, catalog: Any, **lists: Any) -> dict[str, Any]:
        """``kumite cards --json``: the game, its pack and sources, each rule value with its
        provenance, then ``lists`` (cards, characters …)."""
        return {
            "game": self.info.id,
            "pack": catalog.pack.ref(),
            "sources": catalog.pack.sources,
            "rules": {
                name: {"value": getattr(catalog.rules, name), **prov.to_json()}
                for name, prov in catalog.rule_provenance.items()
            },
            **lists,
        }

    def read_overlay(self, path: str | Path) -> str:
        """A user's overlay pack file, validated, as option text."""
        return self.packs.read_overlay(path)

    def pack_ref(self, options: OptionsT) -> dict[str, str]:
        ref: dict[str, str] = self.catalog(options).pack.ref()  # type: ignore[attr-defined]
        return ref
