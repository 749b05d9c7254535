"""Provisional titles: a readable stand-in title drawn from a paper's abstract.

Abstract lists (see `papershelf.formats.abstracts`) have no titles, yet every paper needs
one to be listed and searched, so each gets a title made from its abstract ("Name: what it
is", else the key contribution, else the first sentence) that the user is expected to
replace later. Heuristics only: regular expressions and string tests, deterministic, with
cheap substring checks in front of the searches that must fail, since this runs once per
paper of every imported list. Pure Python: no Qt, no database.
"""

from __future__ import annotations

import re

__all__ = ["provisional_title"]

_MATH_RE = re.compile(r"\$[^$]*\$")
_URL_RE = re.compile(r"\s*(?:https?://|www\.)\S+")
_GITHUB_RE = re.compile(r"github\.com/[\w.-]+/([\w-]+(?:\.[\w-]+)*)")
_MARKUP_RE = re.compile(r"\*{1,3}(?=\S)|(?<=\S)\*{1,3}|`")
_PAREN_RE = re.compile(r"\s*\([^()]*\)")
_SPACES_RE = re.compile(r"\s+")
# Abbreviations (as patterns) whose '.' does not end a sentence; nor does an initial (J.).
_ABBREVIATIONS = (
    "e\\.g", "i\\.e", "a\\.k\\.a", "et al", "etc", "vs", "cf", "resp", "approx", "Fig", "Eq", "Sec",
    "No", "[A-Z]",
)  # fmt: skip


def _not_after_abbreviation() -> str:
    """Look-behinds (one per length, as they must have one) failing after an abbreviation
    and its '.': a whole word, '\\b' before it."""
    by_length: dict[int, list[str]] = {}
    for word in _ABBREVIATIONS:
        length = 1 if word == "[A-Z]" else len(word.replace("\\", ""))
        by_length.setdefault(length, []).append(word)
    return "".join(rf"(?<!\b(?:{'|'.join(words)})\.)" for words in by_length.values())


# A sentence ends after . ! or ?, closing quotes or brackets, and space before a capital,
# but not after an abbreviation. The gap (what is dropped between two sentences) starts
# after the punctuation mark; a pattern starting with the mark (not with a look-behind)
# lets `re` skip ahead to the marks.
_SENTENCE_END_RE = re.compile(
    rf"[.!?]{_not_after_abbreviation()}(?P<gap>[\"”’')\]]*\s+)(?=[\"“(\[]?[A-Z0-9$])"
)

_NAME = r"[A-Za-z0-9][\w$^{}-]*"  # one name token: FrameQuant, EE-LLM, r2SGLD, RG$^2$
_CAP_WORDS = r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,5}"  # Deep Demonstration Tracing
_INTRO_VERBS = (
    r"(?:propose|introduce|present|develop|design|derive|outline|release|build|create"
    r"|construct|devise|contribute|offer|formulate)"
)
_INTRO_RE = re.compile(
    rf"\b[Ww]e\s+(?:(?:also|further|first|then|here|now)\s+)?{_INTRO_VERBS}\s+"
    r"(?!(?:how|that|why|whether|what|on|upon)\b)"
)

# "We present EE-LLM, a framework for ..."
_NAME_COMMA_RE = re.compile(
    rf"\b[Ww]e\s+(?:\w+\s+)?{_INTRO_VERBS}\s+(?P<name>{_NAME}(?:\s+[A-Z][\w-]*){{0,3}}),\s+"
    r"(?P<desc>(?:a|an|the)\s.*)"
)
# "... which we call CoxSig", "dubbed ILARL", "termed as StyDeSty", "namely X (Y) loss"
_CALLED_RE = re.compile(
    r"\b(?:called|dubbed|named|termed(?:\s+as)?|namely|which\s+we\s+(?:call|term|dub|name)"
    r"|referred\s+to\s+as|we\s+call\s+it)\s+"
    rf"(?P<name>(?:{_CAP_WORDS})|{_NAME})"
    r"(?:\s*\((?P<acr>[^()\s]{2,20})\))?(?P<head>\s+[a-z]+(?=[,.;]))?"
)
# "we propose graph neural stochastic diffusion (GNSD), a ...", "Our method, X (Y), ..."
_ACRONYM_RE = re.compile(
    rf"(?:\b[Ww]e\s+(?:\w+\s+)?{_INTRO_VERBS}|\b[Oo]ur\s+(?:method|approach|framework|model"
    r"|algorithm|system|tool|benchmark|dataset),)\s+(?P<exp>[^,;:()]{3,100}?)\s*"
    r"\((?P<acr>[^()\s]{2,20})\)(?P<tail>(?=[,:;.]|\s+(?:which|that|to)\b|$).*)"
)
# "we propose a simple yet effective approach, HarmonyDream, which ..."
_APPOSITIVE_RE = re.compile(
    rf"\b[Ww]e\s+(?:\w+\s+)?{_INTRO_VERBS}\s+(?P<desc>(?:a|an)\s[^,;:]{{3,80}}),\s+"
    rf"(?P<name>{_NAME}),?(?P<tail>.*)"
)
_LEAD_IN_RE = re.compile(
    r"^(?:(?:To this end|To address (?:this|these) (?:issue|challenge|problem|gap)s?"
    r"|Motivated by (?:this|these[\w\s]*?)|Specifically|In particular|Here(?:in)?|Therefore"
    r"|Thus|Hence|Moreover|Furthermore|Finally|In addition|To fill this (?:crucial )?gap"
    r"|In this (?:position |short |technical )?(?:paper|work|article|study|note|letter))"
    r",?\s+)+",
)
_SUBJECT_RE = re.compile(
    r"^(?:(?:we|We)\s+|(?:This|Our|The present)\s+(?:position\s+)?(?:paper|work|article"
    r"|study|note)\s+)"
)
_ADVERB_RE = re.compile(r"^(?:also|further|first|then|here|now|thus|additionally|finally)\s+")
_OBJECT_VERBS = frozenset(
    "propose introduce present develop design derive outline release create construct "
    "devise describe contribute offer formulate study investigate consider explore "
    "examine analyze analyse provide revisit give".split()
)
_CLAUSE_VERBS = frozenset("show argue prove demonstrate find observe claim posit".split())
_TO_SHOW_RE = re.compile(r"\bto\s+(?:show|demonstrate|prove)\s+(?:how|that)\s+(?P<rest>.*)")
_BY_INTRO_RE = re.compile(r"\bby\s+(?:introducing|proposing|presenting)\s+(?P<rest>.*)")
_AIM_RE = re.compile(r"^(?:aim|seek|set\s+out|attempt|try|strive)\s+to\s+")
_PHRASE_VERB_RE = re.compile(r"^(?:delve|look|dig)\s+into\s+|^focus\s+on\s+")
_OBJECT_LEAD_RE = re.compile(
    r"^(?:the\s+(?:problem|question|task|issue|challenge)\s+of\s+|the\s+(?!same\b))"
)
_ADJECTIVE_RE = re.compile(
    r"^(?:(?P<art>an?)\s+)?(?:(?:simple\s+(?:yet|but|and)\s+(?:effective|powerful)"
    r"|novel|new)\b,?\s+)+"
)
_GENERIC_HEADS = frozenset(
    "approach method framework algorithm scheme model technique strategy procedure "
    "system tool estimator".split()
)
# "an approach which automatically adjusts X": a generic head and what it does.
_GENERIC_CLAUSE_RE = re.compile(
    r"^(?:a|an)\s+(?P<head>[a-z]+)\s+(?:which|that)\s+(?P<adv>[a-z]+ly\s+)?"
    r"(?P<verb>[a-z]+s)\s+(?P<rest>.*)"
)
# Places to cut a long title: before a subordinate clause, or at a comma not in a list.
_STRONG_BREAK_RE = re.compile(
    r"\s+(?=(?:which|where|while|whereby|by|with|via|through|using|that|to|based|under)\s)"
    r"|[;:]\s|,\s(?!(?:and|or)\s|[A-Z$])"
)
_TRAILING_JUNK = " \t,;:.!?-–—(\"'“‘"


def provisional_title(abstract: str, max_len: int = 100) -> str:
    """A readable stand-in title drawn from an abstract, at most `max_len` characters.

    Prefers "Name: what it is" for an abstract that introduces a named method; else the
    key contribution ("we propose/show/study ...") with the lead-in removed; else the first
    sentence. Cut at a clause or word boundary ("…" marks a word cut), never inside `$math$`.
    Deterministic and regex-only, as it runs over whole libraries.
    """
    if max_len <= 0:
        return ""
    text = _clean(abstract)
    if not text:
        return ""
    sentences = _sentences(text)
    named = _named_title(sentences, abstract, max_len)
    if named:
        return named
    title = _finish(_key_phrase(sentences), max_len)
    return title or _finish(text, max_len)


def _clean(abstract: str) -> str:
    """Drop URLs and Markdown emphasis; collapse whitespace."""
    text = abstract
    if "http" in text or "www." in text:  # cheap tests first: the patterns need these
        text = _URL_RE.sub("", text)
    if "*" in text or "`" in text:
        text = _sub_outside_math(_MARKUP_RE, "", text)
    # Hence the sentences of cleaned text hold no whitespace but single ' ' characters.
    return _collapse_spaces(text)


def _collapse_spaces(text: str) -> str:
    """`_SPACES_RE.sub(" ", text).strip()`, faster (\\s and str.split() agree on whitespace)."""
    if (
        text.isascii()
        and "  " not in text
        and text[:1] != " "
        and text[-1:] != " "
        and not any(space in text for space in _ASCII_OTHER_SPACES)
    ):
        return text  # already single spaces between words: the common case
    return " ".join(text.split())


_ASCII_OTHER_SPACES = tuple(c for c in map(chr, range(128)) if c.isspace() and c != " ")


def _mask_math(text: str) -> str:
    """Same-length copy of `text` with the inside of `$...$` spans blanked out to 'M'."""
    if "$" not in text:
        return text
    return _MATH_RE.sub(lambda m: "$" + "M" * (len(m.group()) - 2) + "$", text)


def _sub_outside_math(pattern: re.Pattern[str], repl: str, text: str) -> str:
    """`pattern.sub(repl, text)` where matches are found with math spans masked."""
    if "$" not in text:
        return pattern.sub(repl, text)
    masked = _mask_math(text)
    pieces: list[str] = []
    last = 0
    for match in pattern.finditer(masked):
        pieces.append(text[last : match.start()])
        pieces.append(repl)
        last = match.end()
    pieces.append(text[last:])
    return "".join(pieces)


def _sentences(text: str) -> list[str]:
    """Split prose into sentences, not at abbreviations or inside math."""
    masked = _mask_math(text)
    sentences: list[str] = []
    start = 0
    for match in _SENTENCE_END_RE.finditer(masked):
        gap, start_next = match.span("gap")
        sentences.append(text[start:gap].strip())
        start = start_next
    sentences.append(text[start:].strip())
    return [s for s in sentences if s[:1].isalnum() or any(char.isalnum() for char in s)]


def _named_title(sentences: list[str], abstract: str, max_len: int) -> str:
    """'Name: description' if the abstract introduces a named method, else ''."""
    joined = " ".join(sentences)
    if _may_name(joined):  # else no sentence names a method: skip trying each
        for sentence in sentences:
            found = _find_name(sentence)
            if found:
                return _join_name(*found, max_len=max_len)
    url_name = _github_name(abstract)
    if url_name:
        expansion = _find_expansion(url_name, joined)
        if expansion:
            return _join_name(url_name, expansion, "", max_len=max_len)
        return _join_name(url_name, "", _key_phrase(sentences), max_len=max_len)
    return ""


def _find_name(sentence: str) -> tuple[str, str, str] | None:
    """(name, expansion, description) of a method introduced in one sentence, or None.

    `sentence` is one of `_sentences` (its only whitespace is single spaces), so a pattern
    needing "[Ww]e\\s+" needs "we " or "We ": cheap tests skip the searches that must fail
    (`_may_name` says the same of a whole text).
    """
    we = "we " in sentence or "We " in sentence
    comma = "," in sentence
    match = _NAME_COMMA_RE.search(sentence) if we and comma else None
    if match and _is_name(match.group("name"), loose=True):
        return match.group("name"), "", _first_clause(match.group("desc"))

    called = _has_called_hint(sentence) and _has_we_any_case(sentence)
    match = _CALLED_RE.search(sentence) if called else None
    if (
        match
        and _is_name(match.group("name"), loose=True)
        and _WE_ANY_CASE_RE.search(sentence[: match.end()])
    ):
        name = match.group("name") + (match.group("head") or "")
        prefix = sentence[: match.start()].rstrip(" ,")
        desc = _with_tail(_noun_phrase_before(prefix), sentence[match.end() :])
        acronym = match.group("acr")
        if acronym and _is_name(acronym):
            return acronym, name, desc
        return name, "", desc

    acronym = "(" in sentence and (we or "our " in sentence or "Our " in sentence)
    match = _ACRONYM_RE.search(sentence) if acronym else None
    if match and _is_name(match.group("acr")) and len(match.group("exp").split()) <= 8:
        expansion = match.group("exp")
        if _is_name(expansion.split()[0], loose=True) or not _ARTICLE_RE.match(expansion):
            desc_match = _TAIL_DESC_RE.match(match.group("tail"))
            desc = _first_clause(desc_match.group(1)) if desc_match else ""
            return match.group("acr"), expansion, desc

    match = _APPOSITIVE_RE.search(sentence) if we and comma else None
    if match and _is_name(match.group("name")):
        return match.group("name"), "", _with_tail(match.group("desc"), match.group("tail"))
    return None


_WE_ANY_CASE_RE = re.compile(r"\bwe\b", re.IGNORECASE)
_ARTICLE_RE = re.compile(r"(?:an?|the)\s")
_TAIL_DESC_RE = re.compile(r"[,:]\s+((?:a|an|the)\s.*)")


def _may_name(text: str) -> bool:
    """False if no part of `text` (cleaned: single spaces) can hold what `_find_name` finds."""
    if "we " in text or "We " in text:
        return True
    if "(" in text and ("our " in text or "Our " in text):
        return True
    return _has_called_hint(text) and _has_we_any_case(text)


def _has_called_hint(text: str) -> bool:
    """Does `text` hold a word that `_CALLED_RE` needs (called/dubbed/named/namely/...)?"""
    return (
        "call" in text
        or "name" in text
        or "which" in text
        or "dubbed" in text
        or "termed" in text
        or "referred" in text
    )


def _has_we_any_case(text: str) -> bool:
    """Does `text` hold 'we' in any case? (Only ASCII letters match 'w' or 'e' ignoring case.)"""
    return "we" in text or "We" in text or "WE" in text or "wE" in text


def _is_name(token: str, loose: bool = False) -> bool:
    """Does `token` look like a coined name (FrameQuant, EE-LLM, r2SGLD, TROVE)?

    `loose` also accepts a capitalized word or phrase (Reprompting, Deep Demo Tracing),
    for places where the wording already says a name follows.
    """
    first = token.split()[0] if token.strip() else ""
    if not first or not first[0].isalnum():
        return False
    if loose and first[0].isupper() and first.lower() not in {"we", "our", "this", "the"}:
        return True
    core = _NON_ALNUM_RE.sub("", first)
    return len(core) >= 2 and any(c.isupper() for c in core[1:])


_NON_ALNUM_RE = re.compile(r"[^A-Za-z0-9]")
_NON_LETTER_RE = re.compile(r"[^A-Za-z]")
_A_AN_RE = re.compile(r"\b(?:a|an)\s")
_TAIL_CLAUSE_RE = re.compile(r",?\s+((?:which|that|to|for)\s.*)")
_CLAUSE_END_RE = re.compile(r"[,;:]\s|\.(?:\s|$)")
_ACRONYM_WORD_RE = re.compile(r"[A-Za-z][\w']*(?:-[A-Za-z][\w']*)*")


def _noun_phrase_before(prefix: str) -> str:
    """The object of the last 'we propose/...' in `prefix`, or its last 'a/an ...' phrase."""
    intros = list(_INTRO_RE.finditer(prefix))
    if intros:
        return prefix[intros[-1].end() :]
    articles = list(_A_AN_RE.finditer(prefix))
    return prefix[articles[-1].start() :] if articles else ""


def _with_tail(desc: str, tail: str) -> str:
    """Extend a description by a following 'which/that/to ...' clause (first clause only)."""
    match = _TAIL_CLAUSE_RE.match(tail)
    if match:
        return f"{desc} {_first_clause(match.group(1))}".strip()
    return desc


def _first_clause(text: str) -> str:
    """Text up to the first comma, semicolon, colon or sentence end outside math."""
    masked = _mask_math(text)
    match = _CLAUSE_END_RE.search(masked)
    return text[: match.start()] if match else text


def _github_name(abstract: str) -> str:
    """Repository name of a github.com code link, if it looks like a coined name."""
    match = _GITHUB_RE.search(abstract)
    if not match:
        return ""
    name = match.group(1).removesuffix(".git").rstrip(".")
    return name if _is_name(name) else ""


def _find_expansion(name: str, text: str) -> str:
    """The phrase an acronym stands for (AR-DMVC -> Adversarially Robust Deep Multi-View ...)."""
    letters = _NON_LETTER_RE.sub("", name)
    if len(letters) < 3 or not letters.isupper():
        return ""
    words = list(_ACRONYM_WORD_RE.finditer(text))
    initials = ["".join(part[0] for part in w.group().split("-")).upper() for w in words]
    for i in range(len(words)):
        if not words[i].group()[0].isupper():
            continue
        joined = ""
        for j in range(i, len(words)):
            joined += initials[j]
            if not letters.startswith(joined):
                break
            if joined == letters:
                return text[words[i].start() : words[j].end()]
    return ""


def _join_name(name: str, expansion: str, desc: str, max_len: int) -> str:
    """'Name: expansion, description' fitted to `max_len`; an uninformative description
    ('a new method') is left out."""
    head = f"{name}: {_tidy(expansion)}" if expansion else name
    desc = _gerund_clause(_drop_adjectives(_tidy(desc)))
    room = max_len - len(head) - 2
    if desc and room >= 12:
        desc = _finish(desc, room, capitalize=False)
        if not _is_generic(desc):
            return f"{head}{', ' if expansion else ': '}{desc}"
    return _finish(head, max_len, capitalize=False)


def _gerund_clause(desc: str) -> str:
    """'an approach which automatically adjusts X' -> 'automatically adjusting X'."""
    match = _GENERIC_CLAUSE_RE.match(desc)
    if not match or match.group("head").lower() not in _GENERIC_HEADS:
        return desc
    verb = _base_form(match.group("verb"))
    return f"{match.group('adv') or ''}{_gerund(verb).lower()} {match.group('rest')}"


def _drop_adjectives(phrase: str) -> str:
    """'a novel, simple yet effective scheme' -> 'a scheme' (with a/an agreement)."""
    match = _ADJECTIVE_RE.match(phrase)
    if not match:
        return phrase
    rest = phrase[match.end() :]
    article = match.group("art")
    if article is None:
        return rest
    fixed = "an" if rest[:1].lower() in tuple("aeiou") else "a"
    return f"{fixed.capitalize() if article[0] == 'A' else fixed} {rest}"


def _is_generic(desc: str) -> bool:
    """Is a description just 'a (new) method' or similar, saying nothing?"""
    words = [w for w in _SPACES_RE.split(desc.lower().rstrip("…")) if w]
    words = [w for w in words if w not in {"a", "an", "the", "novel", "new"}]
    return len(words) <= 1 and (not words or words[0] in _GENERIC_HEADS)


def _key_phrase(sentences: list[str]) -> str:
    """The contribution phrase of the abstract (lead-ins removed), or its first sentence."""
    best: tuple[int, int, str] | None = None
    # Without any of what `_sentence_rank` looks for, no sentence ranks: skip trying each.
    to_rank = sentences if _may_rank(" ".join(sentences)) else []
    for index, sentence in enumerate(to_rank):
        rank = _sentence_rank(sentence)
        if rank and (best is None or rank < best[0]):
            best = (rank, index, sentence)
    if best is None:
        return _drop_lead_in(sentences[0]) if sentences else ""
    phrase = _contribution(best[2])
    return phrase or _drop_lead_in(best[2])


def _sentence_rank(sentence: str) -> int:
    """1 for 'we propose ...', 2 for 'In this paper, we ...', 3 'we show that', 4 'we study'.

    `sentence` is one of `_sentences` (single spaces only): cheap tests of what each pattern
    needs ("we ", "This", "by ...ing") skip the searches that must fail.
    """
    we = "we " in sentence or "We " in sentence
    if we and _INTRO_RE.search(sentence):
        return 1
    if _has_by_intro(sentence) and _BY_INTRO_RE.search(sentence):
        return 1
    if ("This" in sentence or "Our" in sentence) and _PAPER_PROPOSES_RE.search(sentence):
        return 1
    if sentence.startswith(("In this ", "This ")) and _IN_THIS_PAPER_RE.match(sentence):
        return 2
    if (we or "WE " in sentence or "wE " in sentence) and _WE_SHOW_RE.search(sentence):
        return 3
    if we and _WE_STUDY_RE.search(sentence):
        return 4
    return 0


def _may_rank(text: str) -> bool:
    """False if no part of `text` (cleaned: single spaces) gets a `_sentence_rank`."""
    return (
        "we " in text
        or "We " in text
        or "WE " in text
        or "wE " in text
        or "This" in text
        or "Our" in text
        or "In this " in text
        or _has_by_intro(text)
    )


def _has_by_intro(text: str) -> bool:
    """Does `text` hold the words `_BY_INTRO_RE` needs?"""
    return "by" in text and ("introducing" in text or "proposing" in text or "presenting" in text)


_PAPER_PROPOSES_RE = re.compile(
    r"\b(?:This|Our)\s+(?:paper|work)\s+(?:proposes|presents|introduces)\b"
)
_IN_THIS_PAPER_RE = re.compile(
    r"(?:In this (?:[a-z]+ )?(?:paper|work|article|study)|This (?:paper|work)\s)"
)
_WE_SHOW_RE = re.compile(
    r"\bwe\s+(?:\w+\s+)?(?:show|argue|prove|demonstrate)\s+(?:that|how)\b", re.IGNORECASE
)
_WE_STUDY_RE = re.compile(r"\b[Ww]e\s+(?:study|investigate|consider|explore|examine|analy[sz]e)\b")


def _drop_lead_in(sentence: str) -> str:
    """Remove 'In this paper,' style openers from a sentence."""
    return _LEAD_IN_RE.sub("", sentence).strip()


def _contribution(sentence: str) -> str:
    """Turn 'In this paper, we propose X' into 'X', 'we aim to understand X' into
    'Understanding X', 'we argue that X' into 'X' (no capitalization, not fitted)."""
    for special in (_TO_SHOW_RE, _BY_INTRO_RE):
        match = special.search(sentence)
        if match:
            return _object(match.group("rest"))
    intro = _INTRO_RE.search(sentence)
    if intro:
        return _object(sentence[intro.end() :])
    rest = _drop_lead_in(sentence)
    subject = _SUBJECT_RE.match(rest)
    if subject is None:
        inner = _INNER_WE_RE.search(rest)
        if inner is None:
            return rest
        rest = rest[inner.end() :]
        third_person = False
    else:
        third_person = not subject.group().lower().startswith("we")
        rest = rest[subject.end() :]
    rest = _ADVERB_RE.sub("", rest)
    aim = _AIM_RE.match(rest)
    if aim:
        rest = rest[aim.end() :]
        third_person = False
    phrase = _PHRASE_VERB_RE.match(rest)
    if phrase:
        return _object(rest[phrase.end() :])
    verb, _, remainder = rest.partition(" ")
    base = _base_form(verb) if third_person else verb
    if base in _CLAUSE_VERBS:
        clause = _THAT_HOW_RE.match(remainder)
        if clause:
            return remainder[clause.end() :]
    if base in _OBJECT_VERBS:
        return _object(remainder)
    if not base.isalpha() or not base.islower():
        return rest
    return f"{_gerund(base)} {remainder}".strip()


_INNER_WE_RE = re.compile(r"\b[Ww]e\s+(?=[a-z])")
_THAT_HOW_RE = re.compile(r"(?:that|how)\s+")


def _object(text: str) -> str:
    """An object phrase for a title: leading 'the (problem of)' and hype adjectives dropped."""
    text = _OBJECT_LEAD_RE.sub("", text.strip())
    return _drop_adjectives(text)


def _base_form(verb: str) -> str:
    """'proposes' -> 'propose', 'studies' -> 'study' (third person singular to base)."""
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def _gerund(verb: str) -> str:
    """'capture' -> 'Capturing', 'extend' -> 'Extending', 'map' -> 'Mapping'."""
    if verb.endswith("ie"):
        stem = verb[:-2] + "y"
    elif verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        stem = verb[:-1]
    elif (
        len(verb) <= 4
        and _DOUBLED_END_RE.search(verb)
        and not verb.endswith(("w", "x", "y"))
    ):
        stem = verb + verb[-1]
    else:
        stem = verb
    return (stem + "ing").capitalize()


_DOUBLED_END_RE = re.compile(r"[^aeiou][aeiou][bdgklmnprt]$")


def _capitalize(phrase: str) -> str:
    """Upper-case the first letter unless the first word is a name like 'iALS' or 'r2SGLD'."""
    first = phrase.split(" ", 1)[0]
    if first and first[0].islower() and (first.isalpha() or "-" in first) and first.islower():
        return phrase[0].upper() + phrase[1:]
    return phrase


def _tidy(text: str) -> str:
    """Remove parentheticals and stray spacing from a title fragment."""
    if "(" in text:  # the pattern needs one
        text = _sub_outside_math(_PAREN_RE, "", text)
    text = _collapse_spaces(text)
    return text.replace(" ,", ",")


def _finish(text: str, max_len: int, capitalize: bool = True) -> str:
    """Tidy, fit to `max_len` at a clause or word boundary, and strip trailing punctuation."""
    text = _tidy(text).rstrip(_TRAILING_JUNK)
    if capitalize:
        text = _capitalize(text)
    if len(text) > max_len:
        text = _fit(text, max_len)
    fitted = _balance_math(text).rstrip(_TRAILING_JUNK)
    return fitted or text.replace("$", "")[:max_len].strip()


def _fit(text: str, max_len: int) -> str:
    """Cut `text` to `max_len`: at the last clause break if that keeps enough, else at a
    word boundary with '…'; never inside `$...$`."""
    masked = _mask_math(text)
    floor = max(12, int(max_len * 0.4))
    breaks = [
        m.start()
        for m in _STRONG_BREAK_RE.finditer(masked, 0, max_len + 1)
        if floor <= m.start() <= max_len
    ]
    if breaks:
        return text[: breaks[-1]].rstrip(_TRAILING_JUNK)
    limit = max_len - 1
    space = masked.rfind(" ", 0, limit + 1)
    cut = space if space > max_len // 3 else limit
    while cut > 0 and masked[cut - 1] == "M":  # do not cut inside math
        cut -= 1
    kept = text[:cut].rstrip(_TRAILING_JUNK)
    if not kept:  # one long formula: give up on keeping it as math
        kept = text.replace("$", "")[:limit].rstrip(_TRAILING_JUNK)
    return kept + "…"


def _balance_math(text: str) -> str:
    """Drop an unterminated trailing `$...` so the title has balanced math delimiters."""
    if text.count("$") % 2:
        return text[: text.rfind("$")].rstrip()
    return text
