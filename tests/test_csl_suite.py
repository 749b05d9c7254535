"""Issue 40: `python -m tests.csl_suite` (the CSL test suite's pass rate per category)
counts what passes and what fails, and a fixture that crashes or hangs its engine fails
without stopping the run. On the tiny fixtures of tests/data/csl/suite-sample (see its
README), each with citeproc-js's own result as RESULT."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests import csl_suite

SAMPLE = Path(__file__).resolve().parent / "data" / "csl" / "suite-sample"


@pytest.fixture(scope="module")
def files() -> list[Path]:
    return csl_suite.fixture_files(SAMPLE)


def test_the_sample_fixtures_are_read_as_citeproc_js_reads_them(files: list[Path]) -> None:
    assert [path.stem for path in files] == [
        "broken_NotAStyle", "name_InitialsInBibliography", "number_LabelInMargin",
        "sort_YearInCitation"]
    fixture = csl_suite.parse_fixture(SAMPLE / "sort_YearInCitation.txt")
    assert fixture["MODE"] == "citation"
    assert fixture["RESULT"] == "(Roe 1990; Doe 2010)"  # (no line break added)
    assert fixture["CITATION-ITEMS"] == [[{"id": "ITEM-1"}, {"id": "ITEM-2"}]]
    assert [item["id"] for item in fixture["INPUT"]] == ["ITEM-1", "ITEM-2"]


def test_the_report_counts_passes_and_failures_per_category(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert csl_suite.main([str(SAMPLE), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "4 fixtures" in out
    rows = {line.split(" | ")[0].strip("| "): line for line in out.splitlines()
            if line.startswith("| ")}
    assert rows["name"] == "| name | 1 | 100.0% | 100.0% |"  # a bibliography, passed
    assert rows["sort"] == "| sort | 1 | 100.0% | 100.0% |"  # a citation, passed
    # a numbered bibliography: the same text, not citeproc-js's two divs: failed
    assert rows["number"] == "| number | 1 | 0.0% | 100.0% |"
    assert rows["**bibliography's categories**"] == (
        "| **bibliography's categories** | 3 | 66.7% | 100.0% |")
    # a style that is not XML: failed, with the engine's error, the run going on
    assert rows["broken"] == "| broken | 1 | 0.0% | 0.0% |"
    assert rows["**all**"] == "| **all** | 4 | 50.0% | 75.0% |"
    assert "1  markup only" in out
    assert "1  StyleError: … not a CSL style" in out


def test_the_verdicts_say_why_a_fixture_failed(files: list[Path]) -> None:
    ours, theirs = csl_suite.report(files, timeout=60.0, jobs=2, citeprocjs=None)
    assert theirs is None
    verdicts = {verdict.name: verdict for verdict in ours}
    assert [name for name, verdict in verdicts.items() if verdict.passed] == [
        "name_InitialsInBibliography", "sort_YearInCitation"]
    assert verdicts["number_LabelInMargin"].failure == "markup only"
    # (the label, then a space, as citeproc-js's text output writes it: the title's own
    # prefix " " follows)
    assert verdicts["number_LabelInMargin"].output.startswith(
        '<div class="csl-bib-body">\n  <div class="csl-entry">[1]  First Book</div>')
    broken = verdicts["broken_NotAStyle"]
    assert broken.failure is not None and broken.failure.startswith("StyleError: ")
    assert broken.output == ""


# An engine that hangs on one fixture and dies on another: the worker stands in for
# Papershelf's (same protocol), so the time limit and the restart are what is tested.
STAND_IN = """
import json, os, sys, time
from pathlib import Path
print("@@csl-suite-ready", flush=True)
for file in sys.argv[1:]:
    name = Path(file).stem
    if name.startswith("name_"):
        time.sleep(3600)  # hangs
    if name.startswith("number_"):
        print("Fatal Python error: Segmentation fault", file=sys.stderr, flush=True)
        os._exit(139)  # dies
    result = Path(file).read_text().split("RESULT =====>>\\n")[1].split("\\n<<=")[0]
    print("@@csl-suite " + json.dumps({"name": name, "output": result}), flush=True)
"""


def test_a_fixture_that_hangs_or_kills_its_engine_fails_and_the_run_goes_on(
        tmp_path: Path, files: list[Path]) -> None:
    worker = tmp_path / "worker.py"
    worker.write_text(STAND_IN, encoding="utf-8")
    order = [files[2], files[1], files[3], files[0]]  # dies, hangs, then two more
    outcomes = csl_suite.run_worker([sys.executable, str(worker)], order, timeout=2.0)
    assert sorted(outcomes) == sorted(path.stem for path in files)
    assert outcomes["number_LabelInMargin"].error == (
        "crash: worker exited (139): Fatal Python error: Segmentation fault")
    assert outcomes["name_InitialsInBibliography"].error == "timeout: no result in 2 s"
    verdicts = [csl_suite.judge(path, outcomes[path.stem]) for path in files]
    tally = csl_suite.tally(verdicts)
    assert {name: (part.fixtures, part.passed) for name, part in tally.items()} == {
        "broken": (1, 1), "name": (1, 0), "number": (1, 0), "sort": (1, 1)}
    assert tally["name"].failures == {"timeout: no result in … s": 1}
    assert tally["number"].failures == {
        "crash: worker exited …: Fatal Python error: Segmentation fault": 1}


def test_a_worker_that_cannot_start_fails_every_fixture_once(
        tmp_path: Path, files: list[Path]) -> None:
    worker = tmp_path / "worker.py"
    worker.write_text("raise SystemExit('ModuleNotFoundError: no citeproc')\n",
                      encoding="utf-8")
    outcomes = csl_suite.run_worker([sys.executable, str(worker)], files, timeout=2.0)
    assert {name: outcome.error for name, outcome in outcomes.items()} == {
        path.stem: "worker did not start: ModuleNotFoundError: no citeproc" for path in files}
