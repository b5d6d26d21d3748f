"""Walking a tree a hostile script wrote, by directory descriptors, and cleaning what it left.

A path-string walk fails past PATH_MAX (a script nests 500 folders and everything below is
silently skipped) and follows whatever a path resolves to when it is used. `TreeWalk` opens each
folder relative to its parent's descriptor with O_NOFOLLOW, so depth costs one descriptor per level
and a swapped path can never lead out of the tree; whatever it could not list is named in
`incomplete`, never dropped silently.

`strip_privileges` is the defence behind the seccomp filter (infra/sandbox/seccomp.py): after a run,
no file in the home keeps a setuid, setgid or sticky bit and no device node is left.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

# One open descriptor per level: deep enough for any real home (the tests nest 500 levels, past
# PATH_MAX), well under the 1024 descriptors a default soft limit allows.
MAX_DEPTH = 768
UNSAFE_FILE_BITS = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX
UNSAFE_DIR_BITS = stat.S_ISUID | stat.S_ISGID  # sticky folders (a shared /tmp-like folder) are harmless
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# Changed under us (removed, or replaced by a file or a link): what is there now is listed instead.
_GONE = (errno.ENOENT, errno.ENOTDIR, errno.ELOOP)


@dataclass(frozen=True)
class Node:
    """One entry: `parent_fd` is its folder's descriptor, valid only until the walk moves on."""

    parent_fd: int
    name: str
    rel: str  # relative to the root, POSIX separators
    depth: int  # 1 for the root's own entries
    st: os.stat_result

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.st.st_mode)


class TreeWalk:
    """Depth-first, pre-order, names sorted; symlinks are entries, never followed.

    Example:
        >>> walk = TreeWalk(home)
        >>> with walk as nodes:
        ...     sizes = {n.rel: n.st.st_size for n in nodes}
        >>> walk.incomplete  # e.g. ["nested deeper than 768 levels: …/a/b (768 levels)"]
        []
    """

    def __init__(self, root: Path, *, max_depth: int = MAX_DEPTH) -> None:
        self.root = root
        self.max_depth = max_depth
        self.incomplete: list[str] = []
        self.too_deep: str | None = None  # the first gap of content past max_depth
        self._nodes: Iterator[Node] | None = None

    def __enter__(self) -> Iterator[Node]:
        self._nodes = self._walk()
        return self._nodes

    def __exit__(self, *exc: object) -> None:
        if self._nodes is not None:
            self._nodes.close()  # closes the descriptors of a walk left early

    def _walk(self) -> Iterator[Node]:
        root_fd = os.open(self.root, _DIR_FLAGS)
        stack = [(root_fd, "", iter(self._names(root_fd, ".")))]
        try:
            while stack:
                fd, rel, names = stack[-1]
                name = next(names, None)
                if name is None:
                    os.close(fd)
                    stack.pop()
                    continue
                node = self._node(fd, name, f"{rel}/{name}" if rel else name, len(stack))
                if node is None:
                    continue
                yield node
                if node.is_dir:
                    self._descend(stack, node)
        finally:
            for fd, _, _ in stack:
                os.close(fd)

    def _node(self, fd: int, name: str, rel: str, depth: int) -> Node | None:
        try:
            return Node(fd, name, rel, depth, os.stat(name, dir_fd=fd, follow_symlinks=False))
        except OSError as exc:
            if exc.errno not in _GONE:
                self.incomplete.append(_gap(exc.strerror, rel))
            return None

    def _names(self, fd: int, rel: str) -> list[str]:
        try:
            return sorted(os.listdir(fd))
        except OSError as exc:
            self.incomplete.append(_gap(exc.strerror, rel))
            return []

    def _descend(self, stack: list, node: Node) -> None:
        if node.depth >= self.max_depth:
            gap = _gap(f"nested deeper than {self.max_depth} levels", node.rel)
            self.too_deep = self.too_deep or gap
            self.incomplete.append(gap)
            return
        try:
            fd = os.open(node.name, _DIR_FLAGS, dir_fd=node.parent_fd)
        except OSError as exc:
            if exc.errno not in _GONE:  # EMFILE included: an honest gap, not a silent one
                self.incomplete.append(_gap(exc.strerror, node.rel))
            return
        stack.append((fd, node.rel, iter(self._names(fd, node.rel))))


def _gap(why: str, rel: str) -> str:
    """What could not be listed, and where (a path thousands of characters long, shortened)."""
    where = rel if len(rel) <= 160 else f"…{rel[-120:]} ({rel.count('/') + 1} levels)"
    return f"{why}: {where}"


def is_device(mode: int) -> bool:
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode)


def unsafe_bits(mode: int) -> int:
    """The setuid/setgid/sticky bits no file that leaves a sandbox may keep."""
    if stat.S_ISREG(mode):
        return mode & UNSAFE_FILE_BITS
    if stat.S_ISDIR(mode):
        return mode & UNSAFE_DIR_BITS
    return 0


def strip_privileges(root: Path) -> list[str]:
    """Clear setuid/setgid (and sticky, on files) bits and remove device nodes under `root`;
    returns the paths it changed. Run when nothing in the sandbox is alive any more."""
    changed: list[str] = []
    walk = TreeWalk(root)
    with walk as nodes:
        for node in nodes:
            if is_device(node.st.st_mode):
                os.unlink(node.name, dir_fd=node.parent_fd)
                changed.append(node.rel)
            elif unsafe_bits(node.st.st_mode) and _clear_bits(node):
                changed.append(node.rel)
    if changed:
        log.warning("stripped setuid/setgid bits or device nodes from %d paths under %s", len(changed), root)
    for gap in walk.incomplete:
        log.warning("could not check %s under %s for setuid bits", gap, root)
    return changed


def _clear_bits(node: Node) -> bool:
    # Through a descriptor opened without following links: the path may have been swapped.
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(node.name, flags, dir_fd=node.parent_fd)
    except OSError as exc:
        if exc.errno in _GONE:
            return False
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not unsafe_bits(mode):
            return False
        os.fchmod(fd, stat.S_IMODE(mode) & ~unsafe_bits(mode))
        return True
    finally:
        os.close(fd)
