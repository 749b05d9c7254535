"""Reproduce this folder's samples from zotero/translators' RIS.js (see README.md).

    git -C <translators clone> show <commit>:RIS.js > RIS.js
    python extract.py RIS.js

Each `"type": "import"` test case becomes `case-NN-<first TY>.ris` (its `input`, as UTF-8,
line endings as they are), and `expected.json` maps each file name to the items Zotero
expects of it, cut down to the fields the tests compare.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# The fields of Zotero's expected items kept (creators: lastName/firstName/fieldMode).
FIELDS = ("itemType", "title", "caseName", "nameOfAct", "subject", "date", "issueDate",
          "DOI", "publicationTitle", "bookTitle", "proceedingsTitle", "conferenceName",
          "university", "institution", "publisher", "series", "seriesTitle", "volume",
          "issue", "pages", "numPages", "url", "ISBN", "ISSN", "abstractNote")


def test_cases(source: str) -> list[dict[str, Any]]:
    """The test cases between RIS.js's BEGIN and END TEST CASES markers."""
    block = source[source.index("/** BEGIN TEST CASES **/"):
                   source.index("/** END TEST CASES **/")]
    cases: list[dict[str, Any]] = json.loads(block[block.index("["):block.rindex("]") + 1])
    return cases


def trimmed(item: dict[str, Any]) -> dict[str, Any]:
    """An expected item with only the compared fields (tags and notes counted)."""
    out = {name: item[name] for name in FIELDS if name in item}
    out["creators"] = [{k: c[k] for k in ("lastName", "firstName", "fieldMode", "creatorType")
                        if k in c} for c in item.get("creators", [])]
    out["tags"] = sorted(t["tag"] for t in item.get("tags", []))
    out["notes"] = len(item.get("notes", []))
    return out


def main(ris_js: str) -> None:
    expected: dict[str, list[dict[str, Any]]] = {}
    number = 0
    for case in test_cases(Path(ris_js).read_text(encoding="utf-8")):
        if case["type"] != "import":
            continue
        number += 1
        first = re.search(r"^TY {1,2}- ?(\w*)", case["input"], re.MULTILINE)
        name = f"case-{number:02d}-{(first.group(1) if first else 'none').lower()}.ris"
        (HERE / name).write_bytes(case["input"].encode("utf-8"))
        expected[name] = [trimmed(item) for item in case["items"]]
    (HERE / "expected.json").write_text(
        json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
