"""Copy Citation's forms (issue 27): what a writer pastes into LaTeX, pandoc or Typst."""

from __future__ import annotations

import pytest

from papershelf.core.citing import FORMS, citation


@pytest.mark.parametrize(("form", "expected"), [
    ("cite", "\\cite{vaswani2017,devlin2019}"),
    ("citep", "\\citep{vaswani2017,devlin2019}"),
    ("citet", "\\citet{vaswani2017,devlin2019}"),
    ("autocite", "\\autocite{vaswani2017,devlin2019}"),
    ("parencite", "\\parencite{vaswani2017,devlin2019}"),
    ("pandoc", "[@vaswani2017; @devlin2019]"),
    ("typst", "@vaswani2017 @devlin2019"),
    ("nonsense", "\\cite{vaswani2017,devlin2019}"),
])
def test_each_form(form: str, expected: str) -> None:
    assert citation(["vaswani2017", "devlin2019"], form) == expected


def test_every_form_is_tested() -> None:
    assert set(FORMS) == {"cite", "citep", "citet", "autocite", "parencite", "pandoc",
                          "typst"}
