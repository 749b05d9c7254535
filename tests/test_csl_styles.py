"""Issue 40, styles beyond the seven: a .csl the user adds renders as citeproc-js
renders it. Each test is a small style showing one rule the official styles measured in
tests/data/csl/README.md ("Styles a user adds") rely on, with citeproc-js's text of it
(npm citeproc 2.4.63, citeproc-py's locale files); each failed before its mend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.test_csl_identity import _texts

HEAD = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0"{root}>
  <info><title>Test</title><id>test</id><updated>2026-12-07T00:00:00+00:00</updated></info>
  {locale}{macros}
  <citation{citation}><layout delimiter="; ">{cite}</layout></citation>
  <bibliography{bibliography}><layout{layout}>{entry}</layout></bibliography>
</style>
"""


def _style(tmp_path: Path, entry: str, cite: str = '<text variable="citation-number"/>',
           *, root: str = "", locale: str = "", macros: str = "", citation: str = "",
           bibliography: str = "", layout: str = "") -> str:
    path = tmp_path / f"style{len(list(tmp_path.glob('*.csl')))}.csl"  # (a style each)
    path.write_text(HEAD.format(root=root, locale=locale, macros=macros, citation=citation,
                                cite=cite, bibliography=bibliography, layout=layout,
                                entry=entry), encoding="utf-8")
    return str(path)


def _item(ident: str, *names: tuple[str, str], year: int | None = 2024,
          **more: Any) -> dict[str, Any]:
    item = {"id": ident, "type": "book", "title": f"Title {ident}",
            "author": [{"family": family, "given": given} for family, given in names],
            **more}
    if year:
        item["issued"] = {"date-parts": [[year]]}
    return item


AUTHOR = ('<names variable="author"><name initialize-with="" name-as-sort-order="all" '
          'sort-separator=" " delimiter=", "/></names>')


def test_a_numbered_entry_s_label_is_followed_by_one_space_whatever_it_ends_with(
        tmp_path: Path) -> None:
    """The Lancet's label "1" was glued to its entry ("1Myers V"), BMJ's "1 " had one
    space where citeproc-js writes two, ACS's "(1)" none: citeproc-js puts the first
    field of a `second-field-align` entry in its own column, a space after it in text."""
    items = [_item("a", ("Myers", "Vivek"))]
    expected = {"": "1 Myers V. Title a.", ' suffix=" "': "1  Myers V. Title a.",
                ' prefix="(" suffix=")"': "(1) Myers V. Title a."}
    for label, text in expected.items():
        style = _style(tmp_path, f'<text variable="citation-number"{label}/>'
                       f'<group delimiter=". " suffix=".">{AUTHOR}<text variable="title"/>'
                       '</group>', bibliography=' second-field-align="flush"')
        assert _texts(style, items)[0] == [text]


def test_a_label_of_an_empty_variable_is_not_written(tmp_path: Path) -> None:
    """ACS wrote "2024, p ." for a preprint of no pages: the page's label rendered
    without its page; citeproc-js writes a label only beside its variable."""
    pages = ('<macro name="pages"><label variable="page" form="short" suffix=" "/>'
             '<text variable="page"/></macro>')
    style = _style(tmp_path, '<group delimiter=", " suffix=".">'
                   '<text variable="title"/><date variable="issued"><date-part name="year"/>'
                   '</date><text macro="pages"/></group>', macros=pages)
    items = [_item("a", ("Myers", "Vivek")), _item("b", ("Adepu", "H"), page="203-227")]
    assert _texts(style, items)[0] == ["Title a, 2024.", "Title b, 2024, pp. 203–227."]


def test_a_localized_date_is_delimited_as_the_style_s_locale_says(tmp_path: Path) -> None:
    """NLM's own date format (its cs:locale: year, month, day, delimiter " ") wrote
    "2024Mar": the delimiter was read from the cs:date calling it, which has none."""
    locale = ('<locale xml:lang="en"><date delimiter=" " form="text">'
              '<date-part name="year"/><date-part form="short" name="month" '
              'strip-periods="true"/><date-part name="day"/></date></locale>')
    style = _style(tmp_path, '<text variable="title" suffix=". "/>'
                   '<date form="text" variable="issued" date-parts="year-month"/>',
                   locale=locale)
    item = _item("a", ("Myers", "Vivek"), year=None,
                 issued={"date-parts": [[2024, 3, 5]]})
    assert _texts(style, [item])[0] == ["Title a. 2024 Mar"]


def test_chicago_page_ranges_are_citeproc_js_s_chicago_15(tmp_path: Path) -> None:
    """APSA's and ASA's page-range-format="chicago" was written as "chicago-16"
    ("4160–204"): citeproc-js reads "chicago" as "chicago-15" (the last two digits
    where the hundreds agree, the last three from 10000 on, else whole)."""
    style = _style(tmp_path, '<text variable="page"/>', root=' page-range-format="chicago"')
    pages = ["4160-4204", "33983-34007", "11700-11708", "321-328", "71-78", "1496-1504"]
    items = [_item(f"p{n}", ("Myers", "Vivek"), page=page) for n, page in enumerate(pages)]
    assert _texts(style, items)[0] == ["4160–4204", "33983–7", "11700–708", "321–28",
                                       "71–78", "1496–1504"]


AUTHOR_DATE = ('<group delimiter=" "><names variable="author"><name form="short" and="text"/>'
               '</names><date variable="issued"><date-part name="year"/></date></group>')


def test_a_style_that_writes_no_year_suffix_gets_it_after_its_first_year(
        tmp_path: Path) -> None:
    """Elsevier Harvard and Springer write no `year-suffix`: two papers of one author
    and year were "(Yang 2024)" twice. citeproc-js writes the suffix after the first
    year a cite or an entry shows (not after a second date)."""
    style = _style(tmp_path, f'{AUTHOR}<date variable="issued" prefix=" (" suffix=")">'
                   '<date-part name="year"/></date><text variable="title" prefix=". "/>'
                   '<date variable="accessed" prefix=", seen "><date-part name="year"/>'
                   '</date>', AUTHOR_DATE, citation=' disambiguate-add-year-suffix="true"')
    seen: dict[str, Any] = {"accessed": {"date-parts": [[2025]]}}
    items = [_item("a", ("Yang", "Kai"), **seen), _item("b", ("Yang", "Kai"), **seen)]
    entries, cites = _texts(style, items)
    assert cites == ["Yang 2024a", "Yang 2024b"]
    assert entries == ["Yang K (2024a). Title a, seen 2025", "Yang K (2024b). Title b, seen 2025"]


def test_year_suffixes_of_one_year_are_collapsed(tmp_path: Path) -> None:
    """collapse="year-suffix" wrote "(Chen et al. 2024d, 2024f, 2024h)" where
    citeproc-js writes "2024d, f, h" (Springer); "year-suffix-ranged" runs three letters
    or more into a range; a cite that is empty without its names (no year) is left out."""
    items = [_item(ident, ("Chen", "Yu"), ("Li", "Jo"), ("Wu", "Al"))
             for ident in "abcde"] + [_item("f", ("Chen", "Yu"), ("Li", "Jo"), ("Wu", "Al"),
                                             year=2023),
                                       _item("g", ("Chen", "Yu"), ("Li", "Jo"), ("Wu", "Al"),
                                             year=None)]
    clusters = [["a", "c", "e", "f", "g"], ["a", "b", "c", "e"], ["b", "c", "d", "e"]]
    names = ('<names variable="author"><name form="short" and="text"/></names>')
    for collapse, cited in {
            "year-suffix": ["Chen et al. 2024a, c, e, 2023", "Chen et al. 2024a, b, c, e",
                            "Chen et al. 2024b, c, d, e"],
            "year-suffix-ranged": ["Chen et al. 2024a, c, e, 2023",
                                   "Chen et al. 2024a–c, e", "Chen et al. 2024b–e"]}.items():
        style = _style(tmp_path, AUTHOR, f'<group delimiter=" ">{names}<date '
                       'variable="issued"><date-part name="year"/></date></group>',
                       citation=f' disambiguate-add-year-suffix="true" collapse="{collapse}"'
                       ' et-al-min="3" et-al-use-first="1" cite-group-delimiter=", "')
        assert _texts(style, items, clusters)[1] == cited, collapse


def test_a_citation_sorts_its_cites_by_the_names_they_show(tmp_path: Path) -> None:
    """APSA sorts a citation's cites by its author-short macro: citeproc-js's keys have
    the given names disambiguation adds ("J. Kim et al."; "J.-H. Kim and Min"; "T. Kim"),
    where Papershelf's had the family names only, then sorted by the year."""
    names = ('<names variable="author"><name form="short" and="text" initialize-with=". "/>'
             '</names>')
    style = _style(tmp_path, AUTHOR, f'<group delimiter=" ">{names}<date variable="issued">'
                   '<date-part name="year"/></date></group>',
                   macros=f'<macro name="author-short">{names}</macro>',
                   citation=' disambiguate-add-givenname="true" et-al-min="3" '
                   'et-al-use-first="1" givenname-disambiguation-rule="primary-name"'
                   '><sort><key macro="author-short"/><key variable="issued"/></sort',
                   )
    items = [_item("t", ("Kim", "Tae"), year=2019),
             _item("j", ("Kim", "Jun"), ("Park", "So"), ("Lee", "Ho"), year=2024),
             _item("h", ("Kim", "Jae-Hun"), ("Min", "Su"), year=2024)]
    assert _texts(style, items, [["t", "j", "h"]])[1] == [
        "J. Kim et al. 2024; J.-H. Kim and Min 2024; T. Kim 2019"]


def test_initials_of_a_given_name_kept_whole_are_written_with_the_style_s_mark(
        tmp_path: Path) -> None:
    """ASA keeps given names whole (initialize="false", initialize-with=". "):
    "Stephanie C.Y." stayed so where citeproc-js writes "Stephanie C. Y."."""
    style = _style(tmp_path, '<names variable="author"><name initialize="false" '
                   'initialize-with=". " delimiter="; "/></names>')
    item = _item("a", ("Chan", "Stephanie C.Y."), ("Tolkien", "J.R.R."), ("Ivanov", "Artem M"),
                 ("Sato", "Mark J."), ("Chen", "Xiong-hui"))
    assert _texts(style, [item])[0] == [
        "Stephanie C. Y. Chan; J. R. R. Tolkien; Artem M. Ivanov; Mark J. Sato; "
        "Xiong-hui Chen"]


def test_ambiguous_cites_are_found_as_subsequent_cites_write_them(tmp_path: Path) -> None:
    """ASA (et-al-min 4, et-al-subsequent-min 3) wrote "(Wang, Neubig, and Fried 2024)":
    citeproc-js looks for ambiguous cites among cites rendered as subsequent ones ("Wang
    et al. 2024", alike), so the first cite shows the given name it adds ("Zhiruo
    Wang, Neubig, and Fried 2024")."""
    names = '<names variable="author"><name form="short" and="text" delimiter=", "/></names>'
    style = _style(tmp_path, AUTHOR, f'<group delimiter=" ">{names}<date variable="issued">'
                   '<date-part name="year"/></date></group>',
                   macros=f'<macro name="author-short">{names}</macro>',
                   citation=' et-al-min="4" et-al-use-first="1" et-al-subsequent-min="3" '
                   'et-al-subsequent-use-first="1" disambiguate-add-year-suffix="true" '
                   'disambiguate-add-names="true" disambiguate-add-givenname="true"'
                   '><sort><key macro="author-short"/><key variable="issued"/></sort')
    items = [_item("z", ("Wang", "Zhiruo"), ("Neubig", "Graham"), ("Fried", "Daniel")),
             _item("t", ("Wang", "Tao"), ("Herbert", "Ann"), ("Gao", "Lei"))]
    assert _texts(style, items, [["z"], ["t"], ["z", "t"]])[1] == [
        "Zhiruo Wang, Neubig, and Fried 2024", "Tao Wang, Herbert, and Gao 2024",
        "Tao Wang, Herbert, and Gao 2024; Zhiruo Wang, Neubig, and Fried 2024"]


def test_a_citation_grouped_by_author_sorts_as_citeproc_js_does(tmp_path: Path) -> None:
    """Elsevier Harvard (collapse="year", keys author then issued descending) cited
    "(Commission, 2024, 2022)": citeproc-js's makeCitationCluster, where it groups
    cites by author, gives each key the direction of the key before it, so "2022,
    2024"; a style that does not group keeps "2024; 2022"."""
    cite = ('<group delimiter=", "><names variable="author"><name form="short"/></names>'
            '<date variable="issued"><date-part name="year"/></date></group>')
    sort = ('><sort><key variable="author"/><key variable="issued" sort="descending"/>'
            '</sort')
    items = [_item("a", ("Commission", "E"), year=2022), _item("b", ("Commission", "E")),
             _item("c", ("Young", "Y"), year=2023)]
    grouped = _style(tmp_path, AUTHOR, cite,
                     citation=' collapse="year" cite-group-delimiter=", "' + sort)
    assert _texts(grouped, items, [["b", "a", "c"]])[1] == ["Commission, 2022, 2024; Young, 2023"]
    apart = _style(tmp_path, AUTHOR, cite, citation=sort)
    assert _texts(apart, items, [["b", "a", "c"]])[1] == [
        "Commission, 2024; Commission, 2022; Young, 2023"]


def test_a_long_list_s_sort_key_has_its_given_names_as_initials(tmp_path: Path) -> None:
    """Elsevier Harvard writes "Huang, Yue, ..., Huang, Yixin" in an entry of 70 names
    (two people of one paper, one initial), but citeproc-js's sort key of such a list
    has the initials: "Huang, Y., Sun, L." files before "Huang, Y., Zhang, O."."""
    many = [("Huang", "Yue"), ("Sun", "Lichao")] + [(f"Author{n:02d}", "Ann")
                                                    for n in range(60)] + [("Huang", "Yixin")]
    items = [_item("z", ("Huang", "Yanfei"), ("Zhang", "Odin")), _item("y", *many)]
    style = _style(tmp_path, '<names variable="author"><name name-as-sort-order="all" '
                   'initialize-with="." delimiter=", " et-al-min="3" et-al-use-first="2"/>'
                   '</names>', citation=' disambiguate-add-givenname="true" et-al-min="3" '
                   'et-al-use-first="1"', macros='<macro name="author"><names '
                   'variable="author"><name name-as-sort-order="all" initialize-with="." '
                   'delimiter=", "/></names></macro>',
                   bibliography='><sort><key macro="author"/></sort')
    assert _texts(style, items)[0] == ["Huang, Yue, Sun, L., et al.", "Huang, Y., Zhang, O."]


def test_a_delimiter_after_an_inverted_name(tmp_path: Path) -> None:
    """MHRA (delimiter-precedes-et-al="after-inverted-name", name-as-sort-order
    "first") wrote "Myers, Vivek and others": citeproc-py knows no
    "after-inverted-name"; citeproc-js writes the delimiter after an inverted name."""
    style = _style(tmp_path, '<names variable="author"><name and="text" '
                   'delimiter-precedes-et-al="after-inverted-name" '
                   'delimiter-precedes-last="after-inverted-name" name-as-sort-order="first" '
                   'et-al-min="4" et-al-use-first="1"/></names>')
    items = [_item("a", ("Myers", "Vivek"), ("Zheng", "Chong"), ("Dragan", "Anca"),
                   ("Levine", "Sergey")), _item("b", ("Adepu", "Harsha"), ("Zeng", "Zhan")),
             _item("c", ("Ma", "Hao"), ("Wu", "Jia"), ("Feng", "Ning"))]
    assert _texts(style, items)[0] == ["Myers, Vivek, et al.", "Adepu, Harsha, and Zhan Zeng",
                                       "Ma, Hao, Jia Wu and Ning Feng"]


def test_a_note_style_s_position_conditions_as_citeproc_js_tests_them(
        tmp_path: Path) -> None:
    """A note style of the user's (MHRA, Chicago notes: `position` conditions) failed
    ("'NoneType' object is not iterable": citeproc-py counts the cites rendered before,
    none while it looks for ambiguous ones). A citation of its own has first cites, as
    citeproc-js's makeCitationCluster renders them; the bibliography none."""
    cite = ('<choose><if position="subsequent"><text value="again "/></if><else-if '
            'position="first"><text value="first "/></else-if></choose>'
            '<names variable="author"><name form="short"/></names>')
    style = _style(tmp_path, '<choose><if position="first"><text value="first "/></if>'
                   '</choose><text variable="title"/>', cite,
                   citation=' disambiguate-add-year-suffix="true"')
    items = [_item("a", ("Myers", "Vivek")), _item("b", ("Myers", "Vivek"))]
    assert _texts(style, items, [["a"], ["a", "b"], ["a"]]) == (
        ["Title a", "Title b"], ["first Myers", "first Myers; first Myers", "first Myers"])


def test_cites_collapsed_after_a_collapse_delimiter(tmp_path: Path) -> None:
    """Annual Reviews (after-collapse-delimiter "; ", year-suffix-delimiter ",", no
    year-suffix of its own) wrote "(Li et al. 2024c, Myers et al. 2024)" and
    "2024h,d,f": citeproc-js puts the after-collapse-delimiter between the groups of
    cites and the layout's delimiter after the first of three year suffixes (its
    "2024h, d,f"; here "; ")."""
    names = '<names variable="author"><name form="short"/></names>'
    style = _style(tmp_path, AUTHOR, f'<group delimiter=" ">{names}<date variable="issued">'
                   '<date-part name="year"/></date></group>',
                   citation=' et-al-min="3" et-al-use-first="1" '
                   'disambiguate-add-year-suffix="true" collapse="year-suffix-ranged" '
                   'year-suffix-delimiter="," after-collapse-delimiter="; "')
    three = (("Li", "Jo"), ("Wu", "Al"), ("Xu", "Bo"))
    items = [_item(ident, *three) for ident in "abcdefgh"] + [
        _item("m", ("Myers", "Vivek"), *three[1:])]
    clusters = [["c", "m"], ["h", "d", "f"], ["a", "b"], ["b", "c", "d", "m"]]
    assert _texts(style, items, clusters)[1] == [
        "Li et al. 2024c; Myers et al. 2024", "Li et al. 2024h; d,f", "Li et al. 2024a,b",
        "Li et al. 2024b–d; Myers et al. 2024"]


def test_et_al_options_of_the_style_count_in_disambiguation(tmp_path: Path) -> None:
    """MHRA author-date sets et-al-min and -use-first on cs:style, not cs:citation: its
    disambiguation took every name as shown and added them all ("K. Yang, Ackermann,
    He, Feng, Zhang, Feng, Ye, and others 2024") where citeproc-js adds a given name
    ("K. Yang and others 2024"), and a name where the given name is not enough."""
    names = '<names variable="author"><name and="text" initialize-with=". "/></names>'
    style = _style(tmp_path, AUTHOR, f'<group delimiter=" ">{names}<date variable="issued">'
                   '<date-part name="year"/></date></group>',
                   root=' et-al-min="4" et-al-use-first="1"',
                   citation=' disambiguate-add-givenname="true" disambiguate-add-names="true"'
                   ' disambiguate-add-year-suffix="true"'
                   ' givenname-disambiguation-rule="primary-name"')
    others = [("Ackermann", "Jan"), ("He", "Zhenyu"), ("Feng", "Guhao"), ("Ye", "Qiwei")]
    items = [_item("k", ("Yang", "Kai"), *others), _item("s", ("Yang", "Shuo"), *others[1:]),
             _item("w", ("Yang", "Kai"), ("Wu", "Al"), *others[2:])]
    assert _texts(style, items)[1] == ["K. Yang, J. Ackermann, et al. 2024", "S. Yang et al. 2024",
                                       "K. Yang, A. Wu, et al. 2024"]


def test_partial_first_subsequent_author_substitute(tmp_path: Path) -> None:
    """MHRA's subsequent-author-substitute-rule="partial-first" was read as
    "complete-all": "Schröder, Cornelius, and Jakob H. Macke" after an entry of
    Schröder's kept his name, where citeproc-js writes "——, and Jakob H. Macke"."""
    style = _style(tmp_path, '<names variable="author"><name and="text" '
                   'delimiter-precedes-last="always" name-as-sort-order="first"/></names>'
                   '<text variable="title" prefix=". "/>',
                   bibliography=' subsequent-author-substitute="&#8212;&#8212;" '
                   'subsequent-author-substitute-rule="partial-first"><sort><key '
                   'variable="title"/></sort')
    items = [_item("a", ("Schröder", "Cornelius")), _item("b", ("Schröder", "Cornelius"),
                                                          ("Macke", "Jakob H.")),
             _item("c", ("Macke", "Jakob H."))]
    assert _texts(style, items)[0] == ["Schröder, Cornelius. Title a",
                                       "——, and Jakob H. Macke. Title b",
                                       "Macke, Jakob H. Title c"]


def test_two_spaces_in_a_delimiter_as_citeproc_js_s_html_writes_them(tmp_path: Path) -> None:
    """PNAS delimits a thesis's title and university with ",  ": citeproc-js's HTML
    escapes two spaces in a piece of text as a no-break space and a space, which
    Papershelf kept as two spaces ("Title,”  ETH Zürich")."""
    style = _style(tmp_path, '<group delimiter=",  " suffix="."><text variable="title" '
                   'quotes="true"/><text variable="publisher"/></group>')
    items = [_item("a", ("Zhao", "Xin"), publisher="ETH Zürich")]
    assert _texts(style, items)[0] == ["“Title a,”\u00a0 ETH Zürich."]


def test_a_decorated_element_s_period_is_kept_before_a_sibling_s_period(
        tmp_path: Path) -> None:
    """ISO 690 writes an italic title with the suffix ".", then the term "online" with the
    prefix ". ": citeproc-js merges a suffix with its sibling's prefix only where neither
    is decorated ("Title a.. Online"), where Papershelf dropped every doubled period;
    a plain title's are merged ("Title b. Online")."""
    online = '<text term="online" text-case="capitalize-first" prefix=". "/>'
    style = _style(tmp_path, '<choose><if variable="URL"><text variable="title" '
                   f'font-style="italic" suffix="."/></if><else><text variable="title" '
                   f'suffix="."/></else></choose>{online}')
    items = [_item("a", ("Zhao", "Xin"), URL="https://example.org/a"),
             _item("b", ("Zhao", "Xin"))]
    assert _texts(style, items)[0] == ["Title a.. Online", "Title b. Online"]


def test_a_decorated_element_s_own_period_is_kept_after_its_question_mark(
        tmp_path: Path) -> None:
    """ISO 690's italic title "… Detection?" with the suffix "." is "Detection?." in
    citeproc-js (a parent's suffix it merges: "Detection?"; a plain title's too), where
    Papershelf dropped every period after a "?" or "!"."""
    title = ('<choose><if variable="URL"><text variable="title" font-style="italic"{}/>'
             '</if><else><text variable="title"{}/></else></choose>')
    items = [_item("a", ("Zhao", "Xin"), URL="https://example.org/a", publisher="ETH",
                   title="Conflict?"), _item("b", ("Zhao", "Xin"), title="Robust?",
                                             publisher="ETH"),
             _item("c", ("Zhao", "Xin"), URL="https://example.org/a", publisher="ETH",
                   title="Deep."), _item("d", ("Zhao", "Xin"), URL="https://example.org/a",
                                         publisher="ETH", title="Wow!")]
    publisher = '<text variable="publisher" prefix=" "/>'
    own = _style(tmp_path, title.format(' suffix="."', ' suffix="."') + publisher)
    assert _texts(own, items)[0] == ["Conflict?. ETH", "Robust? ETH", "Deep. ETH", "Wow!. ETH"]
    parent = _style(tmp_path, f'<group suffix=".">{title.format("", "")}</group>{publisher}')
    assert _texts(parent, items)[0] == ["Conflict? ETH", "Robust? ETH", "Deep. ETH",
                                        "Wow! ETH"]


def test_the_bibliography_sorts_by_the_given_names_disambiguation_adds(
        tmp_path: Path) -> None:
    """APA 6th's bibliography shows the given names its citations add ("Chen, Yizhuo",
    "Chen, Yanxi") and citeproc-js sorts by them: Papershelf sorted before disambiguating,
    by "Chen, Y." alone, then by the title ("Title a" first)."""
    macro = ('<macro name="author"><names variable="author"><name name-as-sort-order="all" '
             'initialize-with=". "/></names></macro>')
    style = _style(tmp_path, '<group delimiter=". "><text macro="author"/>'
                   '<text variable="title"/></group>',
                   '<group delimiter=" "><text macro="author"/><date variable="issued">'
                   '<date-part name="year"/></date></group>', macros=macro,
                   citation=' disambiguate-add-givenname="true"'
                   ' givenname-disambiguation-rule="primary-name"',
                   bibliography='><sort><key macro="author"/><key variable="title"/></sort')
    items = [_item("a", ("Chen", "Yizhuo")), _item("b", ("Chen", "Yanxi"))]
    assert _texts(style, items) == (["Chen, Yanxi. Title b", "Chen, Yizhuo. Title a"],
                                    ["Chen, Yizhuo 2024", "Chen, Yanxi 2024"])


def test_complete_each_and_partial_each_subsequent_author_substitute(tmp_path: Path) -> None:
    """subsequent-author-substitute-rule "complete-each" and "partial-each" were read as
    "complete-all" ("——. Title b", the names of "c" kept): citeproc-js writes each name
    as the substitute, all of them where all are the entry before's, or the first ones
    that are, each in its place."""
    items = [_item("a", ("Smith", "Ann"), ("Jones", "Bo")),
             _item("b", ("Smith", "Ann"), ("Jones", "Bo")),
             _item("c", ("Smith", "Ann"), ("Brown", "Cy"), ("Lee", "Di")),
             _item("d", ("Smith", "Ann"), ("Brown", "Cy")), _item("e", ("Smith", "Ann")),
             _item("f", ("Lee", "Di"), ("Brown", "Cy"))]
    expected = {
        "complete-each": ["Smith, Ann, and Bo Jones. Title a", "——, and ——. Title b",
                          "Smith, Ann, Cy Brown, and Di Lee. Title c",
                          "Smith, Ann, and Cy Brown. Title d", "Smith, Ann. Title e",
                          "Lee, Di, and Cy Brown. Title f"],
        "partial-each": ["Smith, Ann, and Bo Jones. Title a", "——, and ——. Title b",
                         "——, Cy Brown, and Di Lee. Title c", "——, and ——. Title d",
                         "——. Title e", "Lee, Di, and Cy Brown. Title f"]}
    for rule, entries in expected.items():
        style = _style(tmp_path, '<names variable="author"><name and="text" '
                       'delimiter-precedes-last="always" name-as-sort-order="first"/></names>'
                       '<text variable="title" prefix=". "/>',
                       bibliography=' subsequent-author-substitute="&#8212;&#8212;" '
                       f'subsequent-author-substitute-rule="{rule}"><sort><key '
                       'variable="title"/></sort')
        assert _texts(style, items)[0] == entries
