"""The conditions of a style's cs:if and cs:else-if, for formats.csl: what citeproc-py's
If.render tests of a cite, with the element's attributes read once, and CSL's
`disambiguate` condition as citeproc-js tests it (citeproc-py takes it as always true)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from papershelf.formats.csl.state import _DISAMBIGUATED, _SORTING, _SUBSEQUENT


def _condition_of(element: Any) -> Any:
    """The conditions of an if or else-if element (`_condition`), read once."""
    try:
        return element.__dict__["_papershelf_condition"]
    except KeyError:
        holds = element.__dict__["_papershelf_condition"] = _condition(element)
        return holds


def _positions(element: Any, context: Any) -> list[bool]:
    """CSL's `position` condition as citeproc-js tests it where it renders a citation
    of its own (makeCitationCluster, no document: every cite a first one) and where it
    looks for ambiguous cites (each a subsequent cite, near its note); never in the
    bibliography. citeproc-py's counted the cites rendered before (or failed, before
    any: a note style of the user's)."""
    try:
        positions, in_bibliography = element.__dict__["_papershelf_positions"]
    except KeyError:
        in_bibliography = bool(element.xpath_search("./ancestor::cs:bibliography"))
        positions = element.__dict__["_papershelf_positions"] = (
            element.get("position").split(), in_bibliography)
    if in_bibliography or (context is not None and context is not element and bool(
            context.xpath_search("./ancestor-or-self::cs:bibliography"))):
        return [False for _position in positions]
    subsequent = _SUBSEQUENT.get()
    return [(not subsequent) if position == "first"
            else subsequent and position in ("subsequent", "near-note")
            for position in positions]


def _condition(element: Any) -> Any:
    """What citeproc-py's `If.render` tests of a cite, with the element's attributes
    read once: a function of the cite and the context, true when the branch is taken.
    `disambiguate="true"` holds only as far as the cite's disambiguation asks
    (`state._Disambiguated`), never in a sort key (citeproc-py takes it as always true:
    MLA's cites would all get a title)."""
    from citeproc import model

    get = element.get
    match = get("match")
    disambiguate = get("disambiguate") == "true" and get("match", "all") == "all"
    types = [kind.lower() for kind in get("type").split()] if "type" in element.attrib else []
    variables = [name.replace("-", "_") for name in get("variable").split()] \
        if "variable" in element.attrib else []
    numeric = [name.replace("-", "_") for name in get("is-numeric").split()] \
        if "is-numeric" in element.attrib else []
    numeric_match = model.If.re_numeric.match
    # the rarer tests, as citeproc-py makes them
    others: list[Callable[[Any, Any], list[Any]]] = [test for attribute, test in (
        ("is-uncertain-date", lambda item, _context: element._is_uncertain_date(item)),
        ("locator", lambda item, _context: element._locator(item)),
        ("position", lambda item, context: _positions(element, context)))
        if attribute in element.attrib]

    if not (disambiguate or numeric or others) and bool(types) != bool(variables) \
            and "locator" not in variables and match in ("any", "none", "all", None):
        return _simple_condition(tuple(types), tuple(variables), match)

    def holds(item: Any, context: Any) -> bool:
        if disambiguate:
            state = _DISAMBIGUATED.get()
            if state is None or _SORTING.get() is not None or not state.holds(item.key):
                return False
        results: list[Any] = []
        if types:
            kind = item.reference.type
            results += [name == kind for name in types]
        if variables:
            reference = item.reference
            results += [("locator" in item) if name == "locator" else (name in reference)
                        for name in variables]
        if numeric:
            reference = item.reference
            results += [name in reference and numeric_match(str(reference[name]))
                        for name in numeric]
        for test in others:
            results += test(item, context)
        if match == "any":
            return any(results)
        if match == "none":
            return not any(results)
        return all(results)

    return holds


def _simple_condition(types: tuple[str, ...], variables: tuple[str, ...],
                      match: str | None) -> Callable[[Any, Any], bool]:
    """`_condition` of the commonest kind: an item's type is one of `types`, or it has
    the `variables` (any, none or all of them), told without building a list."""
    if types:
        if match in ("any", "none"):
            def any_type(item: Any, _context: Any) -> bool:
                return item.reference.type in types
            return any_type if match == "any" else \
                (lambda item, context: not any_type(item, context))

        def all_types(item: Any, _context: Any) -> bool:
            kind = item.reference.type
            return all(name == kind for name in types)
        return all_types
    if match in ("any", "none"):
        def any_variable(item: Any, _context: Any) -> bool:
            reference = item.reference
            return any(name in reference for name in variables)
        return any_variable if match == "any" else \
            (lambda item, context: not any_variable(item, context))

    def all_variables(item: Any, _context: Any) -> bool:
        reference = item.reference
        return all(name in reference for name in variables)
    return all_variables
