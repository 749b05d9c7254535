"""What JabRef and Mendeley keep in a `.bib` beyond the bibliography: groups, special
fields, tags and linked files, as Papershelf's own tags, star, read state and files.

JabRef (3.x and later) writes its group tree into `@Comment{jabref-meta: grouping: …}`
(`groupstree` before 3.x), one `level Type:name\\;context\\;…\\;;` unit a group, and the
static groups an entry is in into its `groups = {A, B}` field; older versions listed the
entries' keys in the tree itself (`ExplicitGroup:name\\;0\\;key1\\;key2\\;;`). The shapes
are those of JabRef's `MetaDataParser`, `GroupsParser` and `QuotedStringTokenizer`.

- static groups (`StaticGroup`, the legacy `ExplicitGroup`) become tags named by their
  path in the tree (`Thesis/Chapter 2`); a name two groups share gives both paths, as
  JabRef shows the entry in both. Dynamic groups (keyword, search, automatic, LaTeX
  groups) are computed, not kept: they are named in one notice, not made tags.
- `readstatus = {read}` is the read state "read", `{skimmed}` "reading";
  `ranking = {rank1}`…`{rank5}` and `relevance = {relevant}` star the paper;
  `priority = {prio1}`…`{prio3}` is the tag `priority/1`…`priority/3`.
- Mendeley's `mendeley-tags = {a, b}` are tags.
- An entry's `keywords` are tags too (issue 40: keywords become tags, as Zotero's and
  JabRef's users expect), first: an export writes a paper's tags as its `keywords`
  (tags win over the field, formats.bibtex.writer; unedited, the field as it was).
- `file = {description:path:type;…}` (JabRef, Mendeley's `:path:pdf`): each PDF of it that
  is on this computer (as written, or relative to the `.bib` or JabRef's `fileDirectory`)
  is linked to the paper the import adds (left where it is, not copied).

The fields mapped to tags, star and read state (`groups`, `readstatus`, `ranking`,
`relevance`, `priority`, `mendeley-tags`) leave the entry's raw fields: they are the
paper's own data from then on, which the user edits, and an export writes the tags (as
`keywords`), not a stale copy. `qualityassured`, `printed`, `file` and every other field
stay as they were read. An import gives tags, star, read state and files to the papers it
adds only; a paper it completes keeps the user's own.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from papershelf.formats.bibtex.fields import keyword_tags
from papershelf.formats.records import PaperRecord, ReadResult
from papershelf.messages import text as message

__all__ = ["GroupTree", "apply_jabref", "parse_group_tree"]

SPECIAL_FIELDS = ("groups", "readstatus", "ranking", "relevance", "priority", "mendeley-tags")
_MAPPED = frozenset(SPECIAL_FIELDS)
_META_RE = re.compile(r"(?i)@comment\s*\{\s*jabref-meta:\s*")
_READ = {"read": "read", "skimmed": "reading"}
_RANK_RE = re.compile(r"rank[1-5]")
_PRIORITY_RE = re.compile(r"prio([1-3])")
_STATIC = ("StaticGroup:", "ExplicitGroup:")
_PDF_MAGIC = b"%PDF-"


@dataclass
class GroupTree:
    """A JabRef group tree: the paths of the static groups by name, the entry keys the
    legacy groups list (by key, lower case), and the dynamic groups' names."""

    paths: dict[str, list[str]] = field(default_factory=dict)
    legacy: dict[str, list[str]] = field(default_factory=dict)
    dynamic: list[str] = field(default_factory=list)
    file_directories: list[str] = field(default_factory=list)


def _units(value: str, separator: str = ";") -> list[str]:
    """`value` cut at unescaped `separator`s, one level of `\\` escapes of `;` and `\\`
    taken away (MetaDataParser.getNextUnit: any other escaped character keeps its `\\`)."""
    units: list[str] = []
    current: list[str] = []
    chars = iter(value)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            if following not in (separator, "\\"):
                current.append("\\")
            current.append(following)
        elif char == separator:
            units.append("".join(current))
            current = []
        else:
            current.append(char)
    if current and "".join(current).strip():
        units.append("".join(current))
    return units


def _meta_blocks(text: str) -> dict[str, str]:
    """The `jabref-meta` comments of a file: name -> value, line breaks removed (as
    JabRef's BibtexParser reads them; it wraps long values at any character)."""
    blocks: dict[str, str] = {}
    for match in _META_RE.finditer(text):
        depth, pos = 1, match.end()
        while pos < len(text) and depth:
            char = text[pos]
            depth += 1 if char == "{" else -1 if char == "}" else 0
            pos += 1
        body = re.sub(r"[\r\n]", "", text[match.end():pos - 1])
        name, _, value = body.partition(":")
        blocks[name.strip()] = value
    return blocks


def parse_group_tree(text: str) -> GroupTree | None:
    """The group tree of a JabRef `.bib` (None if it has none)."""
    if "jabref-meta" not in text:
        return None
    blocks = _meta_blocks(text)
    tree = GroupTree(file_directories=[_units(v)[0] for k, v in blocks.items()
                                       if k.startswith("fileDirectory") and _units(v)])
    grouping = blocks.get("grouping", blocks.get("groupstree"))
    if grouping is None:
        return tree if tree.file_directories else None
    stack: list[str] = []  # the path of the group before, by level (level 1 first)
    for unit in _units(grouping):
        unit = unit.strip()
        level_text, _, group = unit.partition(" ")
        if not level_text.isdigit():
            continue
        level = int(level_text)
        kind, _, rest = group.partition(":")
        parts = _units(rest)  # the group's own `\;`-separated tokens, unescaped
        name = parts[0] if parts else ""
        if level == 0 or not name:  # AllEntriesGroup, the root
            continue
        del stack[level - 1:]
        stack.append(name.replace("/", "-"))  # (a `/` in a name would make a path level)
        path = "/".join(stack)
        if kind + ":" in _STATIC:
            tree.paths.setdefault(name, []).append(path)
            if kind == "ExplicitGroup":  # keys listed after name and context
                for key in parts[2:]:
                    if key.strip():
                        tree.legacy.setdefault(key.strip().lower(), []).append(path)
        else:
            tree.dynamic.append(path)
    return tree


def apply_jabref(text: str, records: list[PaperRecord], path: str, result: ReadResult) -> None:
    """Give `records` (read from `text`, the file `path`) the tags, star, read state and
    files their JabRef / Mendeley fields say (see the module's docstring)."""
    tree = parse_group_tree(text)
    if tree is None and not any(_MAPPED.intersection(r.raw) or "file" in r.raw
                                or "keywords" in r.raw for r in records):
        return
    here = _base_folder(path)
    folders = [here] if here is not None else []
    if tree is not None and here is not None:
        folders += [here / d.replace("\\", os.sep) for d in tree.file_directories]
    missing = keyworded = 0
    for record in records:
        tags: list[str] = []
        raw = record.raw
        if tree is not None and tree.legacy and record.key:
            tags += tree.legacy.get(record.key.lower(), [])
        if _MAPPED.intersection(raw):
            raw = record.raw = dict(raw)  # (the scanner's dict is the entry's own)
            groups = raw.pop("groups", None)
            if groups is not None:
                for name in (n.strip() for n in groups.split(",")):
                    if name:
                        tags += tree.paths.get(name, [name]) if tree else [name]
            state = _READ.get(raw.pop("readstatus", "").strip().lower())
            if state is not None:
                record.read_state = state
            ranking = raw.pop("ranking", "").strip().lower()
            relevance = raw.pop("relevance", "").strip().lower()
            if _RANK_RE.fullmatch(ranking) or relevance == "relevant":
                record.starred = True
            priority = _PRIORITY_RE.fullmatch(raw.pop("priority", "").strip().lower())
            if priority is not None:
                tags.append(f"priority/{priority.group(1)}")
            tags += [t.strip() for t in raw.pop("mendeley-tags", "").split(",")]
            for name in _MAPPED:
                record.raw_source.pop(name, None)
        if raw.get("keywords"):
            # An export writes a paper's tags as its keywords (tags win): the entry's own
            # keywords are among its tags, so that none is lost.
            keyworded += bool(tags)
            tags[:0] = keyword_tags(raw["keywords"])
        for tag in (" ".join(t.split()) for t in tags):
            if tag and tag not in record.tags:
                record.tags.append(tag)
        if "file" in raw:
            found, absent = _linked_files(raw["file"], folders)
            record.files = found
            missing += absent
    if tree is not None and tree.dynamic:
        result.notices.append(message(
            "{path}: JabRef's dynamic groups are searches, not tags; not imported: "
            "{groups}", path=path, groups=", ".join(tree.dynamic)))
    if keyworded:
        result.notices.append(message(
            "{path}: {n} entries with JabRef groups or Mendeley tags also have keywords; "
            "their keywords are tags too (an export writes a paper's tags as its keywords)",
            path=path, n=keyworded))
    if missing:
        result.notices.append(message(
            "{path}: {n} file(s) named in `file` fields are not PDFs on this computer; "
            "not attached", path=path, n=missing))


def _base_folder(path: str) -> Path | None:
    """The folder of the `.bib` (None for text that is not a file: a paste)."""
    file = Path(path)
    return file.resolve().parent if file.is_file() else None


def _file_paths(value: str) -> list[str]:
    """The paths of a `file` field: `description:path:type` units separated by `;`, `\\`
    escaping `:` and `;` (JabRef's FileFieldParser); Mendeley writes a Windows drive's
    colon as `$\\backslash$:`."""
    value = value.replace("$\\backslash$", "\\")
    paths = []
    for unit in _units(value, ";") if "\\;" in value else value.split(";"):
        parts = _split_colons(unit)
        if len(parts) >= 2:
            # a drive letter's colon (`C:\…`) splits the path in two
            if len(parts) >= 4 and len(parts[1]) == 1 and parts[1].isalpha():
                parts[1:3] = [parts[1] + ":" + parts[2]]
            paths.append(parts[1].strip())
        elif parts and parts[0].strip():
            paths.append(parts[0].strip())  # a bare path
    return [p for p in paths if p]


def _split_colons(unit: str) -> list[str]:
    """`unit` cut at colons not escaped with `\\` (the escapes taken away)."""
    parts: list[str] = []
    current: list[str] = []
    chars = iter(unit)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            current.append(following if following in ":;" else "\\" + following)
        elif char == ":":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def _linked_files(value: str, folders: list[Path]) -> tuple[list[str], int]:
    """The PDFs of a `file` field found on this computer (absolute paths), and how many
    of its files were not."""
    found: list[str] = []
    absent = 0
    for name in _file_paths(value):
        candidate = Path(name).expanduser()
        places = [candidate] if candidate.is_absolute() else [f / candidate for f in folders]
        hit = next((p for p in places if _is_pdf(p)), None)
        if hit is None:
            absent += 1
        elif str(hit.resolve()) not in found:
            found.append(str(hit.resolve()))
    return found, absent


def _is_pdf(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return _PDF_MAGIC in handle.read(1024)
    except OSError:
        return False
