"""Text as citeproc-js writes it, for formats.csl: given names as initials
(`_initials_of`), CSL title case (`_titled`) and Chicago's page ranges (`_chicago_15`,
`_chicago_16`)."""

from __future__ import annotations

import functools
import re

# citeproc-py's HTML formatter writes only these tags.
_TAG_RE = re.compile(r"<(/?)(i|b|u|l|sup|sub|span)(?: [^>]*)?>")


_LETTER = "A-Za-z\u0080-\u017f\u0400-\u052f\u0590-\u05ff\u0600-\u06ff"


# The space citeproc-js puts before a given name kept whole in lower case, which
# citeproc-py's seams would drop: written as a space by `_mend`.
_KEPT_SPACE = "\ue000"
# The end of the first field of a bibliography that aligns its second field (a numbered
# entry's label): written as a space by `_mend`, as citeproc-js's text output does.
_FIELD_END = "\ue001"
# The start of a prefix that begins with a period: citeproc-js merges it with the period
# before it only where that is not the suffix of a decorated sibling ("<i>Depth</i>.",
# then ". Online": "Depth.. Online"). Dropped by `_mend`.
_PREFIX_STOP = "\ue002"
# Before the suffix "." of a decorated element ending in "?" or "!" ("<i>Conflict?</i>."),
# which citeproc-js keeps (a parent's suffix it merges). Dropped by `_mend`.
_OWN_STOP = "\ue003"


@functools.lru_cache(maxsize=65536)
def _initials_of(given: str, mark: str, hyphen: bool = True) -> str:
    """A given name's initials as citeproc-js writes them (CSL.Util.Names.initializeWith):
    "Xiong-Hui" "X.-H.", "Shi-ang" "S." (a lower-case part after a hyphen belongs to the
    part before it), "Mark J." "M. J."; a part in lower case is kept whole, after a space
    ("shyma yaser": " shyma yaser"; citeproc-js's second space after the comma)."""
    if not given or not re.match(f"[{_LETTER}]", given):
        return given
    if not hyphen:
        given = given.replace("-", " ")
    given = re.sub(r"\s+", " ", re.sub(r"\s*-\s*", "-", given))
    given = re.sub(r"-([a-z])", "\u2013\\1", given)
    given = re.sub(r"\.(?=[^ ])", ". ", given)
    parts = re.split(r"([\s-]+)", given)
    for n in range(0, len(parts), 2):
        word = parts[n]
        if not word:
            continue
        initial = re.match(f"([A-Z\u0080-\u017f\u0400-\u042f\u0590-\u05ff\u0600-\u06ff])"
                           f"([{_LETTER}]*)", word)
        if initial and initial.group(1) == initial.group(1).upper():
            rest = initial.group(2)
            capitals = re.match(r"[A-Z\u00c0-\u00de]*", rest)
            run = capitals.group(0) if capitals else ""
            parts[n] = initial.group(1) + (run.lower() if len(run) < len(rest) else "")
            if n < len(parts) - 1:
                parts[n + 1] = mark + "-" if "-" in parts[n + 1] else mark
            else:
                parts.append(mark)
        elif re.match(f"[{_LETTER}]", word):
            parts[n] = " " + word
    text = re.sub(r"\s*-\s*", "-", "".join(parts).rstrip())
    text = re.sub(r"\s+", " ", text).replace("\u2013", "-")
    return _KEPT_SPACE + text[1:] if text.startswith(" ") else text


def _initials(given: str) -> str:
    """A given name's initials as citeproc-js compares them ("Shih-yang": "S.")."""
    return _initials_of(given, ".").replace(_KEPT_SPACE, " ").strip()


@functools.lru_cache(maxsize=65536)
def _normalized(given: str, mark: str) -> str:
    """A given name a style keeps whole (initialize="false") with its initials written
    as citeproc-js writes them (CSL.Util.Names.doNormalize): each followed by the
    style's mark, "C.Y." "C. Y.", "Artem M" "Artem M.", the rest as it is."""
    if not given or not re.match(f"[{_LETTER}]", given):
        return given
    name = re.sub(r"\s+", " ", re.sub(r"\s*-\s*", "-", given))
    name = re.sub(r"\.(?=[^ ])", ". ", re.sub(r"-([a-z])", "\u2013\\1", name))
    parts = re.split(r"([\s-]+)", name)
    abbreviated = []
    for n in range(0, len(parts), 2):
        word = parts[n]
        if len(word) > 1 and word.endswith("."):
            head, _dot, tail = word.rpartition(".")
            parts[n] = head + tail
            abbreviated.append(True)
        else:
            abbreviated.append(len(word) == 1 and word.upper() == word)
    for n in range(0, len(parts), 2):
        if not abbreviated[n // 2]:
            continue
        if n < len(parts) - 2:
            if not abbreviated[n // 2 + 1]:
                parts[n + 1] += " "
            parts[n + 1] = mark + parts[n + 1] if len(parts[n + 2]) > 1 else mark
        else:
            parts[n] += mark
    text = re.sub(r"\s*-\s*", "-", "".join(parts).rstrip(" \t\n\ufeff\u00a0"))
    return re.sub(r"\s+", " ", text).replace("\u2013", "-")


def _chicago_16(begin: int, end: int) -> str:
    """The last page of a range as citeproc-js writes it in Chicago's "chicago-16" page
    ranges (its chicago16): from the first power of ten past 100 the two pages share,
    the digits below it ("4160–204", "33983–4007", "71–78")."""
    last = str(end)
    if begin > 100 and begin % 100:
        for power in range(2, len(last)):
            divisor = 10 ** power
            if begin // divisor == end // divisor:
                return str(end % divisor)
    return last


def _chicago_15(begin: int, end: int) -> str:
    """The last page of a range as citeproc-js writes it in page-range-format "chicago"
    and "chicago-15" (its chicago15): its last two digits where the hundreds agree
    ("321–28"), else its last three from 10000 on ("33983–7", "11700–708"), else whole
    ("4160–4204")."""
    if begin > 100 and begin % 100 and begin // 100 == end // 100:
        return str(end % 100)
    if begin >= 10000:
        return str(end % 1000)
    return str(end)


# citeproc-js's words that title case leaves in lower case (CSL.SKIP_WORDS, one word)
_SKIP_WORDS = frozenset("""about above across afore after against al along alongside amid
amidst among amongst anenst apropos apud around as aside astride at athwart atop barring
before behind below beneath beside besides between beyond but by circa despite down during
et except for forenenst from given in inside into lest like modulo near next
notwithstanding of off on onto out over per plus pro qua sans since than through thru
throughout thruout till to toward towards under underneath until unto up upon versus vs.
v. vs v via vis-à-vis with within without or yet so and nor a an the de d' von van c
ca""".split())


def _titled(text: str, first: bool = True) -> str:
    """CSL title case as citeproc-js writes it: a word in lower case capitalized, each
    part of a hyphenated one too ("Multi-Task"), but for the skip words (of, through,
    without...), left as written ("through", "Without"), except first or after a colon;
    a word with capitals of its own ("arXiv", "GANs") kept, math too."""
    words = text.split(" ")
    out = []
    starts = first
    for word in words:
        parts = word.split("-")
        for n, part in enumerate(parts):
            found = re.match(r"^(\W*)(\w[\w'’.]*)(.*)$", part)
            if not found:
                continue
            lead, core, tail = found.groups()
            if "$" in lead or "\\" in lead:  # (math: "$\\ell_0$")
                continue
            if core.lower() in _SKIP_WORDS and not (starts and n == 0):
                pass  # (as written: "through" stays, so does "Through")
            elif core.islower():
                core = core[0].upper() + core[1:]
            parts[n] = lead + core + tail
        out.append("-".join(parts))
        if word:
            starts = word.endswith((":", "?", "!", "."))
    return " ".join(out)
