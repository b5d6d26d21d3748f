"""Office Open XML packages: the zip of XML parts every office handler (sheets, docs, decks) edits
in memory (Package), and the lxml element helpers they share."""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from pathlib import Path

PR = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"


MAX_PART = 64 << 20  # a part bigger than this (uncompressed) is not parsed: the file stays one unit


def q(ns: str, tag: str) -> str:
    return f"{{{ns}}}{tag}"


def local(el) -> str:
    return el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""


def children(el, name: str | None = None) -> list:
    return [c for c in el if isinstance(c.tag, str) and (name is None or local(c) == name)]


def child(el, name: str):
    return next((c for c in el if isinstance(c.tag, str) and local(c) == name), None)


def canon(el, skip: tuple = ()) -> tuple:
    """An element as a comparable value: tag, attributes (less those named in `skip`, at any depth),
    text and children, whatever the prefixes and the indentation."""
    kids = tuple(canon(c, skip) for c in el if isinstance(c.tag, str))
    text = el.text or ""
    text = text if not kids else text.strip()
    return (el.tag, tuple(sorted((k, v) for k, v in el.attrib.items() if k not in skip)), text, kids)


def same(a, b, skip: tuple = ()) -> bool:
    """canon(a) == canon(b) (None only equals None), with a byte-for-byte fast path."""
    from lxml import etree

    if a is None or b is None:
        return a is b
    if not skip and etree.tostring(a) == etree.tostring(b):
        return True
    return canon(a, skip) == canon(b, skip)


def insert_ordered(parent, el, order: list[str]):
    """Insert `el` among `parent`'s children where the schema's sequence `order` puts it."""
    rank = order.index(local(el)) if local(el) in order else len(order)
    for sibling in children(parent):
        if (order.index(local(sibling)) if local(sibling) in order else len(order)) > rank:
            sibling.addprevious(el)
            return el
    parent.append(el)
    return el


def short(value, width: int = 40) -> str:
    text = "empty" if value is None else repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def moved_items(initial: list, golden: list) -> list:
    """The items of `golden` (present in both lists, no duplicates) that moved: those outside a
    longest subsequence kept in the initial order."""
    common = [x for x in golden if x in initial]
    rank = [initial.index(x) for x in common]
    best: list[list[int]] = []  # best[k]: the indices of an increasing run of length k+1
    for i, r in enumerate(rank):
        run = max((b for b in best if rank[b[-1]] < r), key=len, default=[])
        best.append([*run, i])
    keep = {common[i] for i in max(best, key=len, default=[])}
    return [x for x in common if x not in keep]


def preceding(order: list, item, present) -> object | None:
    """The nearest item before `item` in `order` for which present(x) holds, or None."""
    before = order[: order.index(item)]
    return next((x for x in reversed(before) if present(x)), None)


def _parser():
    from lxml import etree

    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


class Package:
    """An OPC package (a zip of parts) held in memory. Parts are parsed with lxml on demand; `save`
    writes every part back in its original order, the edited ones re-serialised and the others byte
    for byte."""

    def __init__(self, path: Path):
        self.data: dict[str, bytes] = {}
        self.infos: dict[str, zipfile.ZipInfo] = {}
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if info.is_dir():
                    continue
                if info.file_size > MAX_PART:
                    raise ValueError(f"part {info.filename} is too big to compare ({info.file_size} bytes)")
                self.infos[info.filename] = info
                self.data[info.filename] = archive.read(info)
        self.trees: dict = {}
        self.edited: set[str] = set()

    def has(self, name: str) -> bool:
        return name in self.data or name in self.trees

    def xml(self, name: str, edit: bool = False):
        from lxml import etree

        if name not in self.trees:
            self.trees[name] = etree.fromstring(self.data[name], _parser())
        if edit:
            self.edited.add(name)
        return self.trees[name]

    def put_xml(self, name: str, root) -> None:
        self.trees[name] = root
        self.edited.add(name)
        self.data.setdefault(name, b"")

    def put_bytes(self, name: str, data: bytes) -> None:
        self.data[name] = data
        self.trees.pop(name, None)
        self.edited.discard(name)

    def remove(self, name: str) -> None:
        self.data.pop(name, None)
        self.trees.pop(name, None)
        self.edited.discard(name)
        if self.has(rels_name(name)):
            self.remove(rels_name(name))
        types = self.xml("[Content_Types].xml", edit=True)
        for override in children(types, "Override"):
            if override.get("PartName") == "/" + name:
                types.remove(override)

    def fresh(self, name: str) -> str:
        """`name`, or the first free name with the same stem and a higher number."""
        stem, number, ext = re.match(r"^(.*?)(\d*)(\.[^./]+)$", name).groups()
        n = int(number or 1)
        while self.has(f"{stem}{n}{ext}"):
            n += 1
        return f"{stem}{n}{ext}"

    def content_type(self, name: str) -> str | None:
        types = self.xml("[Content_Types].xml")
        for override in children(types, "Override"):
            if override.get("PartName") == "/" + name:
                return override.get("ContentType")
        ext = name.rsplit(".", 1)[-1].lower()
        return next(
            (
                d.get("ContentType")
                for d in children(types, "Default")
                if d.get("Extension", "").lower() == ext
            ),
            None,
        )

    def set_content_type(self, name: str, content_type: str | None) -> None:
        if content_type is None or self.content_type(name) == content_type:
            return
        from lxml import etree

        types = self.xml("[Content_Types].xml", edit=True)
        etree.SubElement(types, q(CT, "Override"), PartName="/" + name, ContentType=content_type)

    def rels(self, part: str) -> list:
        name = rels_name(part)
        return children(self.xml(name), "Relationship") if self.has(name) else []

    def target(self, part: str, rel) -> str | None:
        """The part a relationship of `part` points to (None for an external one)."""
        if rel.get("TargetMode") == "External":
            return None
        target = rel.get("Target", "")
        if target.startswith("/"):
            return target[1:]
        return posixpath.normpath(posixpath.join(posixpath.dirname(part), target))

    def rel(self, part: str, rid: str):
        return next((r for r in self.rels(part) if r.get("Id") == rid), None)

    def add_rel(
        self,
        part: str,
        rel_type: str,
        target: str | None,
        external: str | None = None,
        rid: str | None = None,
    ) -> str:
        from lxml import etree

        name = rels_name(part)
        if not self.has(name):
            self.put_xml(name, etree.Element(q(PR, "Relationships"), nsmap={None: PR}))
        root = self.xml(name, edit=True)
        used = {r.get("Id") for r in children(root, "Relationship")}
        n = 1
        while f"rId{n}" in used:
            n += 1
        rid = rid if rid and rid not in used else f"rId{n}"
        rel = etree.SubElement(root, q(PR, "Relationship"), Id=rid, Type=rel_type)
        if external is not None:
            rel.set("Target", external)
            rel.set("TargetMode", "External")
        else:
            rel.set("Target", posixpath.relpath(target, posixpath.dirname(part) or "."))
        return rid

    def drop_rel(self, part: str, rid: str) -> None:
        for rel in self.rels(part):
            if rel.get("Id") == rid:
                self.xml(rels_name(part), edit=True).remove(rel)

    def copy_part(self, src: Package, name: str, hint: str | None = None, done: dict | None = None) -> str:
        """Copy `name` from `src` with every part it refers to (recursively, under fresh names)."""
        done = {} if done is None else done
        if name in done:
            return done[name]
        new = self.fresh(hint or name)
        done[name] = new
        self.put_bytes(new, src.trees_bytes(name))
        self.set_content_type(new, src.content_type(name))
        self.copy_rels(src, name, new, done)
        return new

    def copy_rels(self, src: Package, name: str, new: str, done: dict | None = None) -> None:
        """Give part `new` the relationships of src's `name`, same ids, their targets copied."""
        for rel in src.rels(name):
            target = src.target(name, rel)
            if target is None:
                self.add_rel(new, rel.get("Type"), None, external=rel.get("Target"), rid=rel.get("Id"))
            else:
                self.add_rel(new, rel.get("Type"), self.copy_part(src, target, done=done), rid=rel.get("Id"))

    def trees_bytes(self, name: str) -> bytes:
        from lxml import etree

        if name in self.trees and name in self.edited:
            return etree.tostring(self.trees[name], xml_declaration=True, encoding="UTF-8", standalone=True)
        return self.data[name]

    def referrers(self, name: str) -> list[str]:
        """The parts whose relationships point to `name`."""
        found = []
        for rels in [n for n in list(self.data) if n.endswith(".rels")]:
            owner = owner_of(rels)
            if any(self.target(owner, rel) == name for rel in self.rels(owner)):
                found.append(owner)
        return found

    def remove_tree(self, name: str) -> None:
        """Remove `name` and the parts it refers to that nothing else refers to."""
        targets = [t for t in (self.target(name, r) for r in self.rels(name)) if t]
        self.remove(name)
        for target in targets:
            if self.has(target) and not self.referrers(target):
                self.remove_tree(target)

    def save(self, path: Path) -> None:
        names = list(self.infos) + [n for n in self.data if n not in self.infos]
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in names:
                if name not in self.data:
                    continue
                old = self.infos.get(name)
                info = zipfile.ZipInfo(name, date_time=old.date_time if old else (1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = old.external_attr if old else 0o600 << 16
                archive.writestr(info, self.trees_bytes(name))
        Path(path).write_bytes(buffer.getvalue())


def rels_name(part: str) -> str:
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", base + ".rels")


def owner_of(rels: str) -> str:
    folder, base = posixpath.split(rels)
    return posixpath.join(posixpath.dirname(folder), base[: -len(".rels")])


def main_part(pkg: Package) -> str:
    rel = next(r for r in pkg.rels("") if r.get("Type", "").endswith("/officeDocument"))
    return pkg.target("", rel)


# --- workbooks ------------------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return text.split()
