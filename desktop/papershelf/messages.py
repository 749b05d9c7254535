"""Messages the core makes for the user, in English, that an interface can translate.

The core never imports Qt, yet what it says (an undo step's "Star 3 papers", ...) must
appear in the interface's language. So such a message is a `Text`: a plain `str`, the
English the command line prints, which also carries its template ("Star %n papers",
the form a translation catalogue files it under, `%n` for a count as in Qt) and its
values (which may be Texts themselves). The window looks the template up in its
catalogue and formats the translation (`papershelf.gui.i18n.localized`); without one it
shows the English.
"""

from __future__ import annotations

from typing import Any


class Text(str):
    """A user-visible message: the English (the str itself), its `template` and the
    `values` it was made from, and `n`, the count a plural form follows (-1: none)."""

    template: str
    values: dict[str, Any]
    n: int

    def __new__(cls, english: str, template: str, n: int = -1, **values: Any) -> Text:
        made = super().__new__(cls, english)
        made.template, made.n, made.values = template, n, values
        return made

    def __reduce__(self) -> tuple[Any, ...]:  # (a worker's result may travel pickled)
        return _rebuilt, (str(self), self.template, self.n, self.values)


def _rebuilt(english: str, template: str, n: int, values: dict[str, Any]) -> Text:
    return Text(english, template, n, **values)


def counted(template: str, n: int, **values: Any) -> Text:
    """A message with a count of papers: `template` says "%n papers" ("Star %n papers"),
    the English says "1 paper" or "3 papers"."""
    english = template.replace("%n papers", "1 paper" if n == 1 else f"{n} papers")
    return Text(english.replace("%n", str(n)).format(**values), template, n, **values)


def text(template: str, **values: Any) -> Text:
    """A message without a count: `template` with {names} ("Tag {tags}")."""
    return Text(template.format(**values), template, **values)


def joined(first: str, then: str) -> Text:
    """Two messages as one ("Import 2 papers, complete 1 paper"): the second starts
    in lower case in English."""
    second = then[:1].lower() + then[1:]
    return Text(f"{first}, {second}", "{first}, {then}", first=first, then=then)


def listed(parts: list[str]) -> Text:
    """Messages one after the other, separated by semicolons ("A; B; C")."""
    if not parts:
        return Text("", "")
    made = parts[-1] if isinstance(parts[-1], Text) else Text(parts[-1], "{first}",
                                                                first=parts[-1])
    for part in reversed(parts[:-1]):
        made = Text(f"{part}; {made}", "{first}; {then}", first=part, then=made)
    return made


def plural(template: str, n: int, english: str, **values: Any) -> Text:
    """A message whose words follow a count other than papers': `template` says `%n`
    where the count goes ("%n entries completed"), `english` is the English as the
    count wants it ("1 entry completed")."""
    return Text(english, template, n, **values)
