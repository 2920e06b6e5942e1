"""How to play: ``/rules`` and ``/rules/<game>``, built from the rule index every game
already has (``Game.rules``: the reference each event cites, and its clause) and kumite's
rulings (``docs/rulings.md``), each ruling shown under the rule it reads. The event log of
the table links every rule tag to its anchor here (``/rules/<game>#<reference>``).

Plain HTML from the server, styled by ``/static/css/kumite.css``: no script, so it reads on
any phone and passes the pages' Content-Security-Policy.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import re
from collections.abc import Mapping
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt

from kumite.core.registry import get_spec, specs
from kumite.server.context import Server

# The source checkout's (an editable install), else the one of the checkout the server runs
# in (a wheel, e.g. the compiled build, carries no docs/); with neither the pages show the
# rule index alone.
RULINGS_PLACES = (
    Path(__file__).resolve().parents[3] / "docs" / "rulings.md",
    Path("docs") / "rulings.md",
)

_HEADING = re.compile(r"^(#{2,4}) (.*)$")
_REF = re.compile(r"`([a-z0-9-]+(?:\.[a-z0-9-]+)+)`")
# Untrusted input never reaches it (the rulings are the project's own), but no raw HTML all
# the same: the page's policy would refuse inline styles anyway.
_MD = MarkdownIt("commonmark", {"html": False})

GROUPS = {
    "setup": "Set-up",
    "round": "A round",
    "turn": "A turn",
    "clash": "A clash",
    "ruling": "kumite's rulings",
    "card": "Cards",
    "fighter": "Fighters",
    "end": "The end of the game",
}


@dataclasses.dataclass(frozen=True, slots=True)
class Ruling:
    ref: str | None
    title: str
    body: str  # Markdown


@functools.cache
def _rulings() -> tuple[tuple[str, tuple[Ruling, ...]], ...]:
    """``docs/rulings.md`` as (game section heading, its rulings)."""
    source = next((p for p in RULINGS_PLACES if p.is_file()), None)
    if source is None:
        return ()
    sections: list[tuple[str, list[Ruling]]] = []
    current: list[str] | None = None
    title = ""

    def close() -> None:
        if current is not None and sections:
            found = _REF.search(title)
            sections[-1][1].append(
                Ruling(found.group(1) if found else None, title, "\n".join(current).strip())
            )

    for line in source.read_text(encoding="utf-8").splitlines():
        heading = _HEADING.match(line)
        if heading and len(heading.group(1)) == 2:
            close()
            current = None
            sections.append((heading.group(2), []))
        elif heading and sections:
            close()
            title, current = heading.group(2), []
        elif current is not None:
            current.append(line)
    close()
    return tuple((name, tuple(items)) for name, items in sections)


def _prefix(ref: str) -> str:
    return ref.split(".", 1)[0]


def rulings_for(rules: Mapping[str, str]) -> list[Ruling]:
    """The rulings of the game whose rule index is ``rules``: those of the section of
    ``docs/rulings.md`` whose references share that index's prefixes (``sfr.``, ``rv.``)."""
    prefixes = {_prefix(ref) for ref in rules}
    out: list[Ruling] = []
    for _name, items in _rulings():
        refs = [r.ref for r in items if r.ref]
        if refs and sum(_prefix(r) in prefixes for r in refs) * 2 > len(refs):
            out.extend(items)
    return out


# Groups whose word the name of a clause leaves out: "sfr.round.higher-initiative" is
# "Higher initiative", but "sfr.life.gauge" is "Life gauge".
_OPTION_NOTE = re.compile(r"\s*\(options? [^)]*\)")
_SILENT_GROUPS = frozenset({*GROUPS, "clarify", "faq", "variant", "2v2", "powers", "layout"})


def _words(part: str) -> str:
    return part.replace("-", " ").replace("_", " ")


def rule_name(ref: str, ruling_title: str | None = None) -> str:
    """A clause's plain name, for people: the name a ruling's heading gives it (after its
    dash), else its reference in words (``sfr.round.higher-initiative``: "Higher
    initiative"; a card's power, ``sfr.card.ryu.hurricane-kick``: "Hurricane kick")."""
    if ruling_title and " — " in ruling_title:
        named = _OPTION_NOTE.sub("", ruling_title.split(" — ", 1)[1]).strip().replace("`", "")
        if named:
            return named[0].upper() + named[1:]
    parts = ref.split(".")[1:]
    if len(parts) > 1 and parts[0] == "card":
        parts = parts[-1:]
    elif len(parts) > 1 and parts[0] in _SILENT_GROUPS:
        parts = parts[1:]
    text = " ".join(_words(p) for p in parts) or ref
    return text[0].upper() + text[1:]


def rule_names(rules: Mapping[str, str]) -> dict[str, str]:
    """Every reference of a rule index (and of kumite's rulings for that game) -> its
    plain name (:func:`rule_name`)."""
    titles = {r.ref: r.title for r in (*rulings_for(rules), *_table_rulings()) if r.ref}
    return {ref: rule_name(ref, titles.get(ref)) for ref in (*rules, *titles)}


def _table_rulings() -> tuple[Ruling, ...]:
    """The rulings every game's table cites (resigning, the clock): the section of
    ``docs/rulings.md`` whose references are ``kumite.*``."""
    return tuple(
        r for _name, items in _rulings() for r in items if r.ref and _prefix(r.ref) == "kumite"
    )


def _group(ref: str) -> str:
    parts = ref.split(".")
    return parts[1] if len(parts) > 2 else "general"


def page(title: str, body: str, kind: str = "rules-page") -> str:
    """A page of plain HTML in the site's frame (``kind``: its ``main``'s class)."""
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(title)} — kumite</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/css/kumite.css">
</head>
<body>
  <header class="top"><a class="brand" href="/">kumite</a>
    <span class="tagline">{html.escape(title)}</span></header>
  <main class="{kind}">
{body}
  </main>
</body>
</html>
"""


def render_rules(name: str, game_id: str, rules: Mapping[str, str]) -> str:
    """The How-to-play page of one game."""
    rulings = rulings_for(rules)
    names = rule_names(rules)
    by_ref = {r.ref: r for r in rulings if r.ref}
    groups: dict[str, list[str]] = {}
    for ref in rules:
        groups.setdefault(_group(ref), []).append(ref)
    toc = "".join(
        f'<li><a href="#group-{html.escape(g)}">{html.escape(GROUPS.get(g, g.capitalize()))}'
        f"</a> ({len(refs)})</li>"
        for g, refs in groups.items()
    )
    parts = [
        f"<h1>How to play {html.escape(name)}</h1>",
        '<p class="hint">Every rule the table cites, with the reference its log shows; '
        "kumite's rulings (where the rulebook is unclear) sit under the rule they read. "
        f'New to the game? <a href="/learn/{html.escape(game_id)}">Learn to play</a> first.</p>',
        f'<nav aria-label="contents"><ol class="rules-toc">{toc}</ol></nav>',
    ]
    for g, refs in groups.items():
        items = []
        for ref in refs:
            ruling = by_ref.pop(ref, None)
            detail = (
                f'<div class="ruling">{_MD.render(ruling.body)}</div>' if ruling is not None else ""
            )
            items.append(
                f'<li id="{html.escape(ref)}" class="rule-item"><a class="ref" '
                f'href="#{html.escape(ref)}">{html.escape(names[ref])}</a>'
                f"<p>{html.escape(rules[ref])}</p>{detail}</li>"
            )
        heading = html.escape(GROUPS.get(g, g.capitalize()))
        parts.append(
            f'<section class="panel" id="group-{html.escape(g)}"><h2>{heading}</h2>'
            f'<ol class="rules-list">{"".join(items)}</ol></section>'
        )
    rest = [r for r in rulings if r.ref is None or r.ref in by_ref]
    if rest:
        parts.append('<section class="panel" id="more-rulings"><h2>More rulings</h2>')
        for r in rest:
            anchor = f' id="{html.escape(r.ref)}"' if r.ref else ""
            # A ruling's heading names its reference: its plain name is shown instead.
            title = html.escape(names[r.ref]) if r.ref else _MD.renderInline(r.title)
            parts.append(
                f'<article class="rule-item"{anchor}><h3>{title}</h3>'
                f'<div class="ruling">{_MD.render(r.body)}</div></article>'
            )
        parts.append("</section>")
    parts.append(
        f'<p><a href="/learn/{html.escape(game_id)}">Learn to play {html.escape(name)}</a> · '
        f'<a href="/?game={html.escape(game_id)}">Play {html.escape(name)}</a></p>'
    )
    return page(f"How to play {name}", "\n".join(parts))


def contents(title: str, base: str, names: Mapping[str, str], kind: str = "rules-page") -> str:
    """A page listing one link per game, to ``base/<id>``, under the heading ``title``."""
    links = "".join(
        f'<li><a href="{base}/{html.escape(gid)}">{html.escape(name)}</a></li>'
        for gid, name in names.items()
    )
    return page(title, f'<h1>{title}</h1><ul class="rules-toc">{links}</ul>', kind)


def router(server: Server) -> APIRouter:
    router = APIRouter()

    @router.get("/rules", include_in_schema=False)
    async def rules_index() -> HTMLResponse:
        names = {gid: spec.name for gid, spec in specs().items()}
        return HTMLResponse(contents("How to play", "/rules", names))

    @router.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> HTMLResponse:
        if game_id not in specs():
            raise HTTPException(404, f"no game {game_id[:40]!r}")
        spec = get_spec(game_id)
        return HTMLResponse(render_rules(spec.name, game_id, spec.load().rules))

    @router.get("/api/games/{game_id}/rule-names")
    async def rule_names_of(game_id: str) -> dict[str, str]:
        """Each rule reference of the game -> its plain name: what a rule tag shows."""
        if game_id not in specs():
            raise HTTPException(404, f"no game {game_id[:40]!r}")
        return rule_names(get_spec(game_id).load().rules)

    return router
