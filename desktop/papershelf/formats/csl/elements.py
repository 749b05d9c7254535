"""citeproc-py's (0.11) style elements mended where a style a user adds shows them
departing from citeproc-js, for formats.csl (`_patch_elements`, called once by
`patches._patch_citeproc`): a label beside an empty variable, a localized date's
delimiter."""

from __future__ import annotations

from typing import Any


def _patch_elements(model: Any) -> None:
    """Mend citeproc-py's Label and Date (once, for the whole process)."""
    from citeproc.source import VariableError

    label = model.Label.process

    def labelled(self: Any, item: Any, variable: Any = None, *args: Any,
                 **kwargs: Any) -> Any:
        # a cs:label of its own is written only beside its variable (ACS's "2024, p ."
        # for a paper of no pages); a name's label (cs:names) is given its variable
        if variable is None:
            name = self.get("variable")
            if name and name != "locator":
                try:
                    if not item.reference[name.replace("-", "_")]:
                        return None
                except VariableError:
                    return None
        return label(self, item, variable, *args, **kwargs)

    def single(self: Any, date: Any, show_parts: Any = None, context: Any = None) -> Any:
        # a localized date's parts are delimited as the locale's cs:date says (NLM's own
        # "2024 Mar"), not as the cs:date calling it (citeproc-js ignores its delimiter)
        parts = self.parts(date, show_parts, context) if context != self \
            else self.parts(date, show_parts)
        return self.join(parts) if parts else None

    model.Label.process = labelled
    model.Date.render_single_date = single
