"""Issue 40: on the identity corpus (tests/data/csl/corpus.py, ~300 papers), Papershelf's
bibliography and citations are those of citeproc-js (tests/data/csl/corpus/) on at
least the share of entries in FLOOR, per style: today's figures, so that they only go up
(`python -m tests.csl_identity` prints them, and the differences)."""

from __future__ import annotations

from typing import Any

import pytest

from papershelf.formats import csl
from tests import csl_identity

# Percent of the corpus's entries whose bibliography entry (same place) and citation
# are both citeproc-js's; and of the clusters of several cites.
FLOOR = {"apa": (36.3, 14.9), "ieee": (91.3, 100.0), "chicago": (7.0, 21.3),
         "nature": (90.0, 100.0), "acm": (0.3, 0.0), "harvard": (16.0, 34.0),
         "mla": (32.7, 14.9)}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    try:
        return dict(csl_identity.corpus_module().document())
    except FileNotFoundError:
        pytest.skip("no ../shared/data: the corpus is built from the ICML catalog there")


@pytest.mark.parametrize("style", list(csl.STYLES))
def test_identity_with_citeproc_js_does_not_fall(style: str, document: dict[str, Any]) -> None:
    result = csl_identity.measure(style, document)
    entries, clusters = FLOOR[style]
    assert result.entries == len(document["items"]) >= 290
    assert result.identity >= entries - 0.05, result.differences[:5]
    assert 100 * result.same_clusters / result.clusters >= clusters - 0.05
