"""Reproduce this folder's samples from the CSL test suite (see README.md).

    git -C <test-suite clone> archive <commit> processor-tests/humans | tar -x
    python extract.py processor-tests/humans

Each fixture named in FIXTURES gives `<fixture>.json`: the text of its
`>>===== INPUT =====>>` section (a CSL-JSON array of items) as it is, plus a final newline.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_INPUT_RE = re.compile(r">>=+ INPUT =+>>\n(.*?)\n<<=+ INPUT =+<<", re.DOTALL)

# Chosen for what their items hold (names, dates, types and fields).
FIXTURES = (
    "bugreports_AuthorPosition",  # article-journal: volume, issue, page, DOI, editor
    "bugreports_ProcessorHang1",  # article-journal with DOI, issue
    "bugreports_ContainerTitleShort",  # chapter, container-title-short
    "bugreports_AllCapsLeakage",  # chapter with editors
    "bugreports_ThesisUniversityAppearsTwice",  # thesis with publisher
    "condition_RefTypeBranching",  # report, paper-conference, article, ...
    "disambiguate_YearSuffixMidInsert",  # report with number, note
    "bugreports_NoEventInNestedMacroWithOldProcessor",  # paper-conference, speech
    "disambiguate_ByCiteIncremental1",  # paper-conference with DOI
    "bugreports_ChicagoAuthorDateLooping",  # webpage, URL, publisher
    "bugreports_DoubleEncodedAngleBraces",  # webpage, literal author, URL
    "bugreports_FourAndFour",  # ISBN
    "bugreports_DemoPageFullCiteCruftOnSubsequent",  # note, literal name
    "bugreports_SimpleBib",  # literal names
    "magic_AllowRepeatDateRenderings",  # article-newspaper
    "name_FormattingOfParticles",  # dropping and non-dropping particles
    "magic_NameParticle",  # particles
    "bugreports_ApostropheOnParticle",  # d' particle
    "name_ArticularWithComma",  # suffix with comma-suffix
    "name_Delimiter",  # isInstitution names
    "date_InPress",  # issued literal
    "date_OtherWithDate",  # season
    "date_SeasonRange1",  # date-parts range with raw
    "date_String",  # issued raw only
    "date_Uncertain",  # circa
    "date_RangeDelimiter",  # issued ranges
    "flipflop_NumericField",  # number, an empty type
)


def main(humans: str) -> None:
    for name in FIXTURES:
        text = (Path(humans) / f"{name}.txt").read_text(encoding="utf-8")
        match = _INPUT_RE.search(text)
        if match is None:
            raise SystemExit(f"{name}: no INPUT section")
        json.loads(match.group(1))  # (it must be JSON)
        (HERE / f"{name}.json").write_text(match.group(1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
