"""Provenance flags: what an expression may be computed from, as one `Inspection` (an int of flags).

- `plain` / `hidden`: file content or hub state, from a visible path or from a reference file
  (hidden, or named like an answer key: reference_files.py);
- `names`: a folder listing used as data (the names in it);
- `exists_pos` / `exists_neg`: existence probes and what is only existence in disguise (sizes, mtimes,
  `os.access`, the truth or length of a listing), by polarity (`not p.exists()` is an absence check);
- `opaque`: the result of calling a function value the scan cannot see (a parameter, a table entry);
- `nondet`: the environment, argv, stdin, the clock, randomness, the process or the host;
- `PARAMREAD`: a read of a path that is a parameter of the function (the caller's path decides).

facts.py computes them; the rules read them.
"""

from __future__ import annotations

PLAIN, HIDDEN, NAMES, POS, NEG, OPAQUE, NONDET, PARAMREAD = (1 << i for i in range(8))
READS = PLAIN | HIDDEN
STATE = READS | NAMES | POS | NEG | OPAQUE | PARAMREAD


class Inspection(int):
    """What some code looks at, as flags (see the module docstring); `|` joins two."""

    __slots__ = ()

    def __or__(self, other: int) -> Inspection:
        return Inspection(int(self) | int(other))

    def flipped(self) -> Inspection:
        return Inspection((self & ~(POS | NEG)) | (NEG if self & POS else 0) | (POS if self & NEG else 0))

    reads = property(lambda self: bool(self & (READS | PARAMREAD)))
    hidden = property(lambda self: bool(self & HIDDEN))
    plain = property(lambda self: bool(self & (PLAIN | PARAMREAD)))
    names = property(lambda self: bool(self & NAMES))
    exists_pos = property(lambda self: bool(self & POS))
    exists_neg = property(lambda self: bool(self & NEG))
    opaque = property(lambda self: bool(self & OPAQUE))
    nondet = property(lambda self: bool(self & NONDET))
    state = property(lambda self: bool(self & STATE))  # depends on the state in any way

    @property
    def existence_only(self) -> bool:
        # Only presence: creating an empty (or wrong) file satisfies it. Absence is a delete or move
        # check (gone from the root), which creating files cannot satisfy; presence *and* absence
        # together is a move (present in the target, gone from the source).
        return bool(self & POS) and not self & (READS | NAMES | OPAQUE | PARAMREAD | NEG)


NOTHING = Inspection(0)
