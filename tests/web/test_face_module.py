"""The web faces share one module (issue 29): ``static/js/face.js`` holds a face's styles and
the start of its board, the decision map, the seats' names and the context a page hands a
face. No face keeps a copy of these, no script reads a choice string (the server sends each
choice's label, verb and target), and no face makes a seat's name (the server's
``naming.py`` does). Read from the sources, like the architecture checks."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from kumite.core.registry import specs

SRC = Path(__file__).resolve().parents[2] / "src" / "kumite"
STATIC = SRC / "web" / "static" / "js"
SHARED = STATIC / "face.js"


def own_faces() -> dict[str, Path]:
    """Each game's own face (its spec's ``web`` package's table.js), by game id."""
    out = {}
    for spec in specs().values():
        if spec.web is not None:
            out[spec.id] = Path(str(resources.files(spec.web) / "table.js"))
    assert out, "some game has a face of its own"
    return out


def faces() -> dict[str, Path]:
    """Every face a page may import: the games' own and the generic one."""
    return {**own_faces(), "generic": STATIC / "generic.js"}


def scripts() -> list[Path]:
    """Every script of the web front end: the pages' and the faces'."""
    return sorted({*STATIC.glob("*.js"), *own_faces().values()})


def hits(path: Path, pattern: re.Pattern[str], allowed: re.Pattern[str] | None = None) -> list[str]:
    """The lines of ``path`` that match ``pattern`` (comments and ``allowed`` lines aside)."""
    where = path.relative_to(SRC.parent) if path.is_relative_to(SRC.parent) else path
    return [
        f"{where}:{n}: {line.strip()}"
        for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if pattern.search(line)
        and not line.lstrip().startswith("//")
        and not (allowed and allowed.search(line))
    ]


#: What only face.js may define: a face's own stylesheet link, its own decision map or target
#: keys, the render wrapper around renderView (the page redraws), its own seat naming.
COPIES = {
    "its own stylesheet link": re.compile(r"function ensureStyles|document\.head\.append"),
    "its own render wrapper": re.compile(r"export function render\s*\(|\.rerender\s*="),
    "its own decision map": re.compile(r"function (decisionMap|targetKey)|\btargetKey\(|byTarget"),
    "its own seat naming": re.compile(r"function (seatLabel|withNames)\b"),
    "its own context": re.compile(r"function faceContext\b"),
}


@pytest.mark.parametrize("kind", sorted(COPIES))
def test_no_face_keeps_a_copy_of_the_shared_module(kind):
    found = [hit for path in faces().values() for hit in hits(path, COPIES[kind])]
    assert found == [], f"{kind} belongs in static/js/face.js"


@pytest.mark.parametrize("face", sorted(faces()))
def test_every_face_draws_through_the_shared_module(face):
    """A face imports face.js, starts its board there and exports ``renderView``: the one entry
    the live table and the replay call."""
    text = faces()[face].read_text("utf-8")
    assert re.search(r'^import \{[^}]*\} from "(/static/js|\.)/face\.js";$', text, re.M)
    assert "startBoard(container" in text
    assert "export function renderView(container, ctx)" in text


def test_the_pages_build_one_context_for_a_face():
    """The live table and the replay hand a face the context face.js builds, nothing of their
    own: the object a face reads is made in one place."""
    for page in ("table.js", "replay.js"):
        text = (STATIC / page).read_text("utf-8")
        calls = re.findall(r"renderer\.renderView\([^,]+,\s*(\w+)", text)
        assert calls, page
        assert re.search(r"\bfaceContext\(", text), page
        for name in calls:
            if name != "faceContext":
                assert re.search(rf"const {name} = faceContext\(", text), page


#: Reading a choice string: cutting it at its separator, or testing it for a verb prefix.
CHOICE_PARSING = re.compile(
    r"""\.split\(\s*(["'])[:|]\1\s*\)"""
    r"""|\b(startsWith|endsWith|indexOf|includes|match)\(\s*(["'])[\w-]*:\3"""
    r"""|\b(choice|\w+Choice|legal\[\w+\]|c\.id)\s*\.\s*(split|startsWith|endsWith|slice|substring|indexOf|match)\("""
)
#: A card value's provenance ("source:KEY") is no choice.
PROVENANCE = re.compile(r"\bprov\.from\b")


def test_no_script_reads_a_choice_string():
    """docs/protocol.md, "Choices": a front end finds what to click from each choice's target
    and groups choices by verb; it never cuts a choice string."""
    found = [hit for path in scripts() for hit in hits(path, CHOICE_PARSING, PROVENANCE)]
    assert found == []


#: A seat's name made in a face: "Player 2", "P1 …", "seat 3", or a name read from the seats.
NAME_MAKING = re.compile(
    r"""\b(Player|P|[Ss]eat) ?\$\{|["'`]P\d|\bPlayer \(?\\d"""
    r"""|\bstate\.seats\b[^;]*\.name\b|\bseats\[[^\]]+\]\.name\b"""
)


@pytest.mark.parametrize("face", sorted(faces()))
def test_no_face_makes_a_seats_name(face):
    """One name per seat, made by the server (naming.py): a face calls a seat by ctx.seatName
    (the name with its mark) or ctx.plainName, and never builds or cuts one."""
    assert hits(faces()[face], NAME_MAKING) == []


def test_only_the_shared_module_turns_seat_numbers_into_names():
    """The rules' "Player N" in a text becomes the seat's name in face.js alone."""
    found = [
        hit
        for path in scripts()
        if path != SHARED
        for hit in hits(path, re.compile(r"Player \(\\d|Player \(\?\\d"))
    ]
    assert found == []
