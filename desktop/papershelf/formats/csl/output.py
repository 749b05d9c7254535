"""What formats.csl writes: citeproc-py's HTML with its known slips mended (`_mend`),
and an entry as plain text, Markdown or RTF."""

from __future__ import annotations

import html
import os
import re
from collections.abc import Sequence

from papershelf.formats.csl.style import _Style
from papershelf.formats.csl.text import (
    _FIELD_END,
    _KEPT_SPACE,
    _OWN_STOP,
    _PREFIX_STOP,
    _TAG_RE,
)

FORMATS = ("text", "html", "markdown", "rtf")
# An output file's suffix: its format.
SUFFIX_FORMATS = {".txt": "text", ".text": "text", ".html": "html", ".htm": "html",
                  ".md": "markdown", ".markdown": "markdown", ".rtf": "rtf"}
# A period doubled after a title's own end (citeproc-py #105), outside an ellipsis:
# "robustness?." "Deep Learning..", also across the closing tag of an italic title.
# Nor after a decorated element's "?" or "!", its own suffix ("<i>Conflict?</i>.": a
# parent's suffix is merged, "<i>Conflict?</i>").
# Not where the first is the suffix of a decorated element and the second a sibling's
# prefix (citeproc-js's "leftward" merge skips decorated siblings: "Depth.. Online").
_DOUBLE_STOP_RE = re.compile(
    rf"(?<![.])(</[a-z]+>)?([.?!])((?:</[a-z]+>)*)({_OWN_STOP}?)({_PREFIX_STOP}?)\.(?![.])")
# A straight apostrophe after a letter ("Don't", "O'Reilly"), outside a link, which
# citeproc-js writes as a typographic one (’).
_APOSTROPHE_RE = re.compile(r"(?<=\w)(?:'|&#x27;|&#39;)")
# A colon after a space ("Tilt and Average : Geometric"), which citeproc-js writes after
# a narrow no-break space.
_SPACED_COLON_RE = re.compile(r"(?<=\w) :(?=\s)")
_TWO_SPACES_RE = re.compile(r"\s\s")
_LINK_RE = re.compile(r"(https?://[^\s<>\"]+)")


def _mend(text: str, style: _Style, entry: bool = False) -> str:
    """citeproc-py's HTML with its known slips mended: a doubled period (citeproc-py
    issue #105), ' and " :" as citeproc-js writes them (outside links), a period or comma
    the locale puts inside closing quotes, a space after a numbered entry's label
    ("[1]Smith") and citation numbers a style collapses into a range ("1–6")."""
    text = _DOUBLE_STOP_RE.sub(_single_stop, text.strip())
    text = text.replace(_PREFIX_STOP, "").replace(_OWN_STOP, "")
    text = text.strip().lstrip(_KEPT_SPACE)
    text = "".join(part if n % 2 else _SPACED_COLON_RE.sub(
        "\u202f:", _APOSTROPHE_RE.sub("\u2019", part))
        for n, part in enumerate(_LINK_RE.split(text)))
    if style.punctuation_in_quote:
        text = _inside_quotes(text, style.close_quote)
    # citeproc-js's HTML escapes each piece of text (a variable, an affix, a delimiter)
    # with two spaces in it as a no-break space and a space (PNAS's ',  ' delimiter).
    text = _TWO_SPACES_RE.sub("\u00a0 ", text)
    if entry:  # (a numbered entry's label, then a space: "[1] Smith", "1  Myers")
        text = text.replace(_FIELD_END, " ")
    if not entry and style.collapse_numbers and style.delimiter:
        text = _collapsed(text, style.delimiter)
    return text.replace(_KEPT_SPACE, " ")  # (after the label: "[63]  yang zhang")


def _single_stop(match: re.Match[str]) -> str:
    closed, stop, tags, own, prefix = match.groups()
    if closed and prefix:  # (a decorated element's suffix, a sibling's prefix)
        return match.group(0)
    if own:  # ("<i>Conflict?</i>." a decorated element's own suffix after its "?")
        return match.group(0)
    return (closed or "") + stop + tags


def _inside_quotes(text: str, close: str) -> str:
    """A period or comma after a closing quote moved inside it (American usage, as
    citeproc-js does): '“Title”,' -> '“Title,”'; a period after '?' or '!' is dropped."""
    def moved(match: re.Match[str]) -> str:
        before, mark = match.group(1), match.group(2)
        if before and before in ".?!" and mark == ".":
            return before + close
        return before + mark + close

    return re.sub(f"(.?){re.escape(close)}([.,])", moved, text)


def _collapsed(text: str, delimiter: str) -> str:
    """Runs of three or more consecutive citation numbers as a range: "1,2,3,5" ->
    "1–3,5" (citeproc-py does not collapse; the CSL specification asks for it)."""
    def ranges(match: re.Match[str]) -> str:
        numbers = [int(n) for n in match.group(0).split(delimiter)]
        runs: list[list[int]] = []
        for number in numbers:
            if runs and number == runs[-1][-1] + 1:
                runs[-1].append(number)
            else:
                runs.append([number])
        return delimiter.join(f"{run[0]}–{run[-1]}" if len(run) >= 3
                              else delimiter.join(map(str, run)) for run in runs)

    separator = re.escape(delimiter)
    return re.sub(rf"(?<![\d–])\d+(?:{separator}\d+)+(?![\d–])", ranges, text)


def _written(entries: list[str], fmt: str) -> str:
    if fmt == "html":
        body = "".join(f'  <div class="csl-entry">{entry}</div>\n' for entry in entries)
        return f'<div class="csl-bib-body">\n{body}</div>\n'
    if fmt == "markdown":
        return "".join(f"{to_markdown(entry)}\n\n" for entry in entries).rstrip("\n") + "\n"
    if fmt == "rtf":
        return to_rtf(entries)
    return "".join(f"{to_text(entry)}\n" for entry in entries)


def _checked_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown bibliography format {fmt!r}: use one of "
                         f"{', '.join(FORMATS)}")
    return fmt


def format_for(path: str) -> str:
    """The format of an output file by its suffix (text for any other)."""
    return SUFFIX_FORMATS.get(os.path.splitext(path)[1].lower(), "text")


def to_text(entry: str) -> str:
    """citeproc-py's HTML of one entry as plain text."""
    return html.unescape(_TAG_RE.sub("", entry))


_MD_SPECIAL_RE = re.compile(r"([\\`*_\[\]<>#|])")
_MD_MARKS = {"i": "*", "b": "**", "u": "", "l": "", "span": ""}
# A link in an entry, without the punctuation that follows it ("https://doi.org/10.1/x.").
_URL_RE = re.compile(r"https?://[^\s<>]*[^\s<>.,;:)]")


def _md_text(text: str) -> str:
    """Plain text as Markdown: its links as <autolinks> (nothing escaped inside: a DOI's
    underscores stay), Markdown's own characters escaped elsewhere."""
    out, pos = [], 0
    for match in _URL_RE.finditer(text):
        out.append(_MD_SPECIAL_RE.sub(r"\\\1", text[pos:match.start()]))
        out.append(f"<{match.group(0)}>")
        pos = match.end()
    out.append(_MD_SPECIAL_RE.sub(r"\\\1", text[pos:]))
    return "".join(out)


def to_markdown(entry: str) -> str:
    """One entry as Markdown: *italic*, **bold**, <sup>/<sub> kept as HTML, Markdown's
    own characters escaped (so "[1]" is not a link, nor "1." a list), links as
    <autolinks>."""
    out: list[str] = []
    pos = 0
    for match in _TAG_RE.finditer(entry):
        out.append(_md_text(html.unescape(entry[pos:match.start()])))
        tag = match.group(2)
        out.append(f"<{match.group(1)}{tag}>" if tag in ("sup", "sub") else _MD_MARKS[tag])
        pos = match.end()
    out.append(_md_text(html.unescape(entry[pos:])))
    text = "".join(out)
    return re.sub(r"^(\d+)\.", r"\1\\.", text)


_RTF_CODES = {"i": ("\\i ", "\\i0 "), "b": ("\\b ", "\\b0 "), "u": ("\\ul ", "\\ul0 "),
              "sup": ("\\super ", "\\nosupersub "), "sub": ("\\sub ", "\\nosupersub "),
              "span": ("\\scaps ", "\\scaps0 "), "l": ("", "")}


def _rtf_text(text: str) -> str:
    out = []
    for char in text:
        if char in "\\{}":
            out.append("\\" + char)
        elif ord(char) < 128:
            out.append(char)
        else:  # RTF's \uN takes a signed 16-bit number, a character beyond it two
            for unit in _utf16(char):
                out.append(f"\\u{unit - 65536 if unit > 32767 else unit}?")
    return "".join(out)


def _utf16(char: str) -> list[int]:
    data = char.encode("utf-16-be")
    return [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]


def _rtf_inline(entry: str) -> str:
    out: list[str] = []
    pos = 0
    for match in _TAG_RE.finditer(entry):
        out.append(_rtf_text(html.unescape(entry[pos:match.start()])))
        opening, closing = _RTF_CODES[match.group(2)]
        out.append(closing if match.group(1) else opening)
        pos = match.end()
    out.append(_rtf_text(html.unescape(entry[pos:])))
    return "".join(out)


def to_rtf(entries: Sequence[str]) -> str:
    """A whole RTF document: one paragraph an entry, a hanging indent."""
    paragraphs = "".join(f"{{\\pard\\fi-720\\li720\\sa120 {_rtf_inline(entry)}\\par}}\n"
                         for entry in entries)
    return ("{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0\\froman Times New Roman;}}\\f0\\fs24\n"
            f"{paragraphs}}}\n")
