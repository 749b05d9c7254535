"""Retraction notices from hostile places: a nature written into the shared `notices`
by another member or a newer client, Crossref dates no calendar has, and Retraction
Watch files (`--from FILE`) with cells made to drive a terminal, lines without an end,
more rows or bytes than any published copy."""

from __future__ import annotations

from papershelf.core import retractions
from papershelf.core.library import Library
from papershelf.core.retractions import NoticeEntry

BIB = """\
@article{roe2021, title={Deep Results}, author={Roe, Jane}, journal={J Ex}, year={2021},
  doi={10.1234/jex.2021.42}}
@article{odd2020, title={An Odd Notice}, author={Odd, O}, journal={Bio}, year={2020},
  doi={10.4321/odd.1}}
"""


def _id(library: Library, key: str) -> int:
    return library.ids_for_keys([key])[0][0]


def test_a_notice_of_a_nature_this_version_does_not_know_is_ranked_last(
        library: Library) -> None:
    """Any member may write `notices` (and a newer client may know more natures): a
    nature outside NATURES breaks neither the table's rows nor the detail pane."""
    library.import_bibtex(BIB, "refs.bib")
    retractions.replace_source(library.context, retractions.RETRACTION_WATCH, [
        NoticeEntry("Withdrawal", doi_norm="10.1234/jex.2021.42", date="2024-01-01"),
        NoticeEntry("Correction", doi_norm="10.1234/jex.2021.42", date="2022-01-01"),
        NoticeEntry("Withdrawal", doi_norm="10.4321/odd.1")])
    roe, odd = _id(library, "roe2021"), _id(library, "odd2020")
    found = library.notices_of([roe, odd])
    assert [n.nature for n in found[roe]] == ["Correction", "Withdrawal"]
    assert [n.nature for n in found[odd]] == ["Withdrawal"]
    rows = library.rows([roe, odd])
    assert (rows[roe].notice, rows[odd].notice) == ("Correction", "Withdrawal")
    assert retractions.warnings(library.context, [roe, odd]) == []
