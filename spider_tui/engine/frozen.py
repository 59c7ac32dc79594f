"""``Frozen``: a record whose fields are its ``__slots__``, made without ``dataclasses``.

A frozen dataclass takes ~1-6 ms to make (its methods are written as source and compiled), at
every start for each one imported (SPEC §11's start).  A subclass names its fields in
``__slots__`` and sets them in its ``__init__`` with ``object.__setattr__``; ``Frozen`` gives it
what ``@dataclass(frozen=True)`` did: equality and a hash by its fields (an instance of the same
class only), a ``repr`` that names them, pickling, and ``FrozenInstanceError`` on assignment.

>>> class Point(Frozen):
...     __slots__ = ("x", "y")
...     def __init__(self, x: int, y: int = 0) -> None:
...         object.__setattr__(self, "x", x)
...         object.__setattr__(self, "y", y)
>>> Point(1) == Point(1, 0), Point(1, 2), Point(1).replace(y=5)
(True, Point(x=1, y=2), Point(x=1, y=5))
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from operator import attrgetter
from typing import Any


class Frozen:
    """A frozen record (see the module doc)."""

    __slots__: tuple[str, ...] = ()
    _get: Any = staticmethod(lambda self: ())  # the fields as a tuple, set per class below

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # One C getter per class: hashing and comparing are asked for every position the
        # Palast writes (``Rules.name``), and a generator over the names costs ~3x as much.
        super().__init_subclass__(**kwargs)
        names = tuple(cls.__slots__)
        if len(names) > 1:
            cls._get = staticmethod(attrgetter(*names))
        elif names:
            one = attrgetter(names[0])
            cls._get = staticmethod(lambda self: (one(self),))
        else:  # ``__slots__ = ()`` of its own: no fields, as before, not its parent's
            cls._get = Frozen.__dict__["_get"]

    def _fields(self) -> tuple:
        return self._get(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or self._get(self) == other._get(other)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._get(self))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple:
        return type(self), self._fields()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={v!r}' for n, v in zip(self.__slots__, self._fields()))})"

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed (``dataclasses.replace``)."""
        return type(self)(**{**dict(zip(self.__slots__, self._fields())), **changes})
