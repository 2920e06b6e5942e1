"""Walking a game state's object graph, for the generic contract tests of every game.

:func:`mutable_objects` lists the mutable objects reachable from a state: lists, dicts,
sets, random generators and instances of ordinary classes. It walks through containers,
``__dict__``, ``__slots__`` and the attributes of mypyc-compiled classes. Values declared
immutable are leaves: numbers, strings, functions (compiled ones too), classes, modules,
frozen dataclasses, frozen msgspec structs, slotted records whose fields are all ``Final``,
instances with no field at all, and the :class:`~kumite.core.game.Game` objects every state
of a game shares by design (their static tables are the game's, not a position's).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import inspect
import random
import types
from collections import deque
from typing import Any

import msgspec

from kumite.core.decision import Decision
from kumite.core.game import Game

_LEAVES = (
    type(None),
    bool,
    int,
    float,
    complex,
    str,
    bytes,
    range,
    type,
    enum.Enum,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.ModuleType,
    frozenset,
    Game,
    # Final fields, but compiled by mypyc (the fast build) it shows neither slots nor notes
    Decision,
)
_MUTABLE_CONTAINERS = (list, dict, set, bytearray, deque)


def frozen(obj: object) -> bool:
    """Whether ``obj`` is a value declared immutable (a leaf of the walk)."""
    if isinstance(obj, _LEAVES):
        return True
    cls = type(obj)
    if dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return True
    if isinstance(obj, msgspec.Struct):
        return bool(cls.__struct_config__.frozen)
    return (
        _final_record(cls) or _compiled_function(obj) or _compiled_read_only(obj) or _fieldless(obj)
    )


def _fieldless(obj: object) -> bool:
    """An instance of a slotted or compiled class that has no field at all and no
    ``__dict__`` (a stateless strategy object, such as a requirement check with no
    parameter): there is nothing in it to change."""
    cls = type(obj)
    declared = any(
        "__slots__" in klass.__dict__ or "__mypyc_attrs__" in klass.__dict__
        for klass in cls.__mro__[:-1]
    )
    return declared and not hasattr(obj, "__dict__") and not _slots(cls)


def _compiled_function(obj: object) -> bool:
    """A nested function compiled by mypyc (the fast build): an instance of a generated
    callable class whose captured variables live in ``__mypyc_env__``. A function, as an
    interpreted one is (whose closure cells the walk does not enter either)."""
    return callable(obj) and hasattr(obj, "__mypyc_env__")


@functools.cache
def _final_record(cls: type) -> bool:
    """A slotted class whose every field is annotated ``Final`` (the engines' records:
    mypy refuses writes, the compiled build refuses them at run time)."""
    slots = _slots(cls)
    if not slots or "__dict__" in slots:
        return False
    notes: dict[str, object] = {}
    for klass in reversed(cls.__mro__):
        notes.update(inspect.get_annotations(klass))
    return all(str(notes.get(n, "")).startswith(("Final", "typing.Final")) for n in slots)


def _compiled_read_only(obj: object) -> bool:
    """A mypyc-compiled record (the fast build keeps neither slots nor notes): every
    attribute refuses a write. The probe writes each value back onto itself, so a writable
    object is left as it was."""
    cls = type(obj)
    if "__mypyc_attrs__" not in cls.__dict__:
        return False
    names = _slots(cls)  # its own fields and its compiled bases'
    if not names:
        return False
    for name in names:
        value = _get(obj, name)
        if value is _MISSING:
            continue
        try:
            setattr(obj, name, value)
        except (AttributeError, TypeError):
            continue
        return False
    return True


class _Missing:
    pass


_MISSING = _Missing()


def _get(obj: object, name: str) -> Any:
    try:
        return getattr(obj, name)
    except AttributeError:
        return _MISSING


def mutable_objects(root: object) -> dict[int, tuple[object, str]]:
    """Every mutable object reachable from ``root``: id -> (object, path from the root)."""
    found: dict[int, tuple[object, str]] = {}
    seen: set[int] = set()
    stack: list[tuple[object, str]] = [(root, "state")]
    while stack:
        obj, path = stack.pop()
        if id(obj) in seen or frozen(obj):
            continue
        seen.add(id(obj))
        children: list[tuple[object, str]]
        if isinstance(obj, tuple | types.MappingProxyType):
            items = obj.items() if isinstance(obj, types.MappingProxyType) else enumerate(obj)
            stack += [(v, f"{path}[{k!r}]") for k, v in items]
            continue
        if obj is not root:
            found[id(obj)] = (obj, path)
        if isinstance(obj, random.Random):
            continue  # its state is C-level: a mutable leaf
        if isinstance(obj, dict):
            children = [(k, f"{path}.key") for k in obj] + [
                (v, f"{path}[{k!r}]") for k, v in obj.items()
            ]
        elif isinstance(obj, _MUTABLE_CONTAINERS):
            children = [(v, f"{path}[{i}]") for i, v in enumerate(obj)]
        else:
            children = [(v, f"{path}.{n}") for n, v in _named_attributes(obj)]
        stack += children
    return found


def _slots(cls: type) -> list[str]:
    """Attribute names held outside ``__dict__``: slots and mypyc-compiled attributes."""
    names: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
        names += list(klass.__dict__.get("__mypyc_attrs__", ()))
    return list(dict.fromkeys(names))


def _named_attributes(obj: object) -> list[tuple[str, Any]]:
    out = []
    for name in _slots(type(obj)):
        if name in ("__dict__", "__weakref__"):
            continue
        value = _get(obj, name)
        if value is not _MISSING:
            out.append((name, value))
    out += list(getattr(obj, "__dict__", {}).items())
    return out


def shared_mutables(a: object, b: object) -> list[str]:
    """Paths (from ``a``) of the mutable objects ``a`` and ``b`` both reach."""
    left, right = mutable_objects(a), mutable_objects(b)
    return sorted(path for key, (_, path) in left.items() if key in right)
