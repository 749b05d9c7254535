"""A Zotero note (HTML, as Zotero's note editor writes it) as plain Markdown-ish text,
for the notes of a paper. Pure Python: html.parser, no Qt.

Paragraphs and headings become blank-line separated blocks (`# Heading`), list items
`- item` (or `1. item`), bold `**b**`, italics `*i*`, links `[text](href)` (the bare
address when it is the text), `<br>` a line break, block quotes `> `, code in
backticks; entities are decoded, everything else (spans, colours, images) keeps only
its text.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["note_text"]

_BLOCKS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
                     "blockquote", "pre", "table", "tr", "hr"})
_SKIPPED = frozenset({"script", "style", "head", "title"})
_INLINE = {"b": "**", "strong": "**", "i": "*", "em": "*", "code": "`"}
_SPACE_RE = re.compile(r"[ \t\r\n\f\v]+")
_BLANKS_RE = re.compile(r"\n{3,}")
_BREAK = "\x00"  # a <br> among the text being collected


class _Notes(HTMLParser):
    """Collects the text of a note, block by block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.line: list[str] = []
        self.prefix = ""  # of the block being collected ("# ", "- ", "> ")
        self.lists: list[list[int]] = []  # per open list: [next number], or [] (bullets)
        self.quote = 0
        self.pre = 0
        self.skip = 0
        self.links: list[str] = []  # the open links' addresses
        self.link_starts: list[int] = []

    # -- blocks ---------------------------------------------------------------------

    def flush(self) -> None:
        """End the block being collected (nothing if it holds no text)."""
        raw = "".join(self.line)
        self.line = []
        if self.pre:
            body = raw.replace(_BREAK, "\n").strip("\n")
        else:  # (white space of the source is one space; a <br> is a line break)
            body = "\n".join(_SPACE_RE.sub(" ", part).strip()
                             for part in raw.split(_BREAK)).strip()
        if body:
            quote = "> " * self.quote
            lines = body.split("\n")
            text = "\n".join(quote + (self.prefix if n == 0 else " " * len(self.prefix)) + line
                             for n, line in enumerate(lines))
            self.blocks.append(("```\n" + text + "\n```") if self.pre else text)
        self.prefix = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.skip += 1
            return
        if tag in _BLOCKS:
            self.flush()
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.prefix = "#" * int(tag[1]) + " "
        elif tag == "ul":
            self.lists.append([])
        elif tag == "ol":
            self.lists.append([1])
        elif tag == "li":
            numbering = self.lists[-1] if self.lists else []
            indent = "  " * max(0, len(self.lists) - 1)
            if numbering:
                self.prefix = f"{indent}{numbering[0]}. "
                numbering[0] += 1
            else:
                self.prefix = f"{indent}- "
        elif tag == "blockquote":
            self.quote += 1
        elif tag == "pre":
            self.pre += 1
        elif tag == "hr":
            self.blocks.append("---")
        elif tag == "br":
            self.line.append(_BREAK)
        elif tag in _INLINE:
            self.line.append(_INLINE[tag])
        elif tag == "a":
            self.links.append(dict(attrs).get("href") or "")
            self.link_starts.append(len(self.line))
        elif tag in ("td", "th") and self.line:
            self.line.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skip = max(0, self.skip - 1)
            return
        if tag in _INLINE:
            self.line.append(_INLINE[tag])
        elif tag == "a" and self.links:
            href, start = self.links.pop(), self.link_starts.pop()
            label = "".join(self.line[start:]).strip()
            if href and href != label:
                self.line[start:] = [f"[{label}]({href})" if label else href]
        elif tag in _BLOCKS:
            self.flush()
            if tag in ("ul", "ol") and self.lists:
                self.lists.pop()
            elif tag == "blockquote":
                self.quote = max(0, self.quote - 1)
            elif tag == "pre":
                self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.line.append(data)


def note_text(html: str) -> str:
    """The readable text of a note's HTML: blocks separated by blank lines ("" for a
    note without text). Text that is no HTML comes back with its spacing tidied."""
    if "<" not in html:
        return _BLANKS_RE.sub("\n\n", html.replace("\r\n", "\n")).strip()
    parser = _Notes()
    parser.feed(html)
    parser.close()
    parser.flush()
    # List items follow each other without a blank line between them.
    out: list[str] = []
    for block in parser.blocks:
        if out and _is_item(block) and _is_item(out[-1].rsplit("\n", 1)[-1]):
            out[-1] += "\n" + block
        else:
            out.append(block)
    return "\n\n".join(out).strip()


_ITEM_RE = re.compile(r"^(?:> )*\s*(?:- |\d+\. )")


def _is_item(block: str) -> bool:
    return bool(_ITEM_RE.match(block))
