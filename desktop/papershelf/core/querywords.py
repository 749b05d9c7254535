"""A query's tree (core.query) read back in words, for the quiet hint under the search
field and an empty result's message: e.g. `author “hinton” and year 2020–2024, not
“survey”`. Each reading is a papershelf.messages Text, so that the window shows it in its
language."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from papershelf.core.query import And, Everything, Exact, Flag, Node, Not, Or, Range, Text
from papershelf.messages import text

# Each reading is a papershelf.messages Text, so that the window shows it in its language.
_LABELS = {"author": text("author"), "title": text("title"), "abstract": text("abstract"),
           "venue": text("venue"), "notes": text("notes"), "pdf": text("PDF text"),
           "ann": text("annotations"), "key": text("key"), "doi": text("DOI"),
           "tag": text("tag"), "type": text("type"),
           "year": text("year"), "added": text("added"), "read": text("read"),
           "lastread": text("last read")}
_FLAG_WORDS = {("is", "starred"): text("starred"), ("is", "unread"): text("unread"),
               ("is", "reading"): text("being read"), ("is", "read"): text("read"),
               ("is", "provisional"): text("provisional"),
               ("is", "retracted"): text("retracted"), ("is", "corrected"): text("corrected"),
               ("has", "pdf"): text("with a PDF"),
               ("has", "notes"): text("with notes"), ("has", "doi"): text("with a DOI"),
               ("has", "abstract"): text("with an abstract"),
               ("has", "annotations"): text("with annotations")}


def describe(node: Node) -> str:
    """A short reading of how a query was understood, for a hint under the search field:
    e.g. `author “hinton” and year 2020–2024, not “survey”` (a papershelf.messages Text)."""
    match node:
        case Everything():
            return text("everything")
        case Text(field, phrase, prefix):
            quoted = _quote(" ".join(phrase), prefix)
            return quoted if field is None else _labelled(field, quoted)
        case Exact(field, value, prefix):
            return _labelled(field, _quote(value, prefix))
        case Flag(field, value):
            return _FLAG_WORDS.get((field, value), value)
        case Range(field, low, high):
            return _labelled(field, _span(low, high))
        case Not(inner):
            return text("not {term}", term=_grouped(inner))
        case And(nodes):
            kept = _chain("{first} and {then}",
                          [_grouped(n) for n in nodes if not isinstance(n, Not)])
            return _chain("{first}, {then}", [kept] * bool(kept) + [
                describe(n) for n in nodes if isinstance(n, Not)])
        case Or(nodes):
            return _chain("{first} or {then}", [_grouped(n) for n in nodes])


def _labelled(field: str, what: str) -> str:
    return text("{field} {what}", field=_LABELS.get(field, field), what=what)


def _chain(template: str, parts: list[str]) -> str:
    """Parts joined two by two with `template` ('a and b and c')."""
    made = parts[0] if parts else ""
    for part in parts[1:]:
        made = text(template, first=made, then=part)
    return made


def _quote(words: str, prefix: bool) -> str:
    return f"“{words}…”" if prefix else f"“{words}”"


def _grouped(node: Node) -> str:
    """`node` in words, in parentheses when it joins others."""
    return text("({term})", term=describe(node)) if isinstance(node, (And, Or)) \
        else describe(node)


def _span(low: int | datetime | None, high: int | datetime | None) -> str:
    """An interval [low, high) of years or instants in words."""
    if isinstance(low, int) or isinstance(high, int):
        first, last = (low if isinstance(low, int) else None,
                       high - 1 if isinstance(high, int) else None)
        if first is None or last is None:
            return text("{year} or later", year=first) if last is None else \
                text("{year} or earlier", year=last)
        return str(first) if first == last else f"{first}–{last}"
    if high is None:
        return text("since {when}", when=_instant(low)) if low else text("at any time")
    if low is None:
        return text("before {when}", when=_instant(high))
    if low.time() == high.time() == time():  # whole days: a calendar period, or days
        months = (high.year - low.year) * 12 + high.month - low.month
        if high - low == timedelta(days=1):
            return text("on {day}", day=_instant(low))
        if low.day == high.day == 1 and months == 12 and low.month == 1:
            return text("in {period}", period=_instant(low)[:4])
        if low.day == high.day == 1 and months == 1:
            return text("in {period}", period=_instant(low)[:7])
        return text("from {first} to {last}", first=_instant(low),
                    last=_instant(high - timedelta(days=1)))
    return text("from {first} to before {last}", first=_instant(low), last=_instant(high))


def _instant(point: datetime) -> str:
    """A date, with its time of day unless midnight."""
    day = point.date().isoformat()
    return day if point.time() == time() else f"{day} {point:%H:%M}"
