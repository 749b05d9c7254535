"""The CSL processor test suite (github.com/citation-style-language/test-suite,
`processor-tests/humans/*.txt`) run through Papershelf's engine, and through citeproc-js
beside it: the pass rate per category (a fixture's name before the underscore: `sort_`,
`name_`, ...). Issue 40's measure (tests/data/csl/README.md, "The CSL test suite"). Run
from the repository's root:

    PYTHONPATH=desktop python -m tests.csl_suite SUITE_DIR [--category sort,name,...]
        [--show N] [--citeproc-js DIR] [--timeout SECONDS] [--jobs N]

SUITE_DIR: the test suite's checkout (or any folder of `*.txt` fixtures).
`--citeproc-js DIR`: a folder where `npm install citeproc` was run (make_fixtures.sh's
scratch folder): citeproc-js runs the same fixtures, by `data/csl/run_suite_citeprocjs.js`.
`--show N`: the first N fixtures Papershelf fails, with the expected and its output.

A fixture passes when the output is the fixture's RESULT exactly, as citeproc-js's
test runner compares them (its newlines normalised, nothing else): a bibliography as
`<div class="csl-bib-body">` with a `  <div class="csl-entry">` line an entry, the
citations one a line. The `text` columns compare the plain text only (tags dropped,
entities read, white space collapsed). A fixture the engine cannot run (an error, a
dead process, no result within `--timeout` seconds) fails, with its error summarised.
Every engine runs in worker processes that are killed and started again over a fixture
that hangs; the run goes on.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NODE_RUNNER = HERE / "data" / "csl" / "run_suite_citeprocjs.js"
MARK = "@@csl-suite "
READY = "@@csl-suite-ready"
STARTUP_SECONDS = 120.0  # a worker's imports, on a loaded machine

# The categories a bibliography (and its in-text citations without locators) uses: how
# names, dates, numbers and titles are written, sorted, told apart and grouped. Left
# out: notes' positions (ibid., subsequent), locators, a word processor's document
# updates (integration), citeproc-js's own extensions (magic), reported style bugs
# (bugreports: whole styles), markup in the input (flipflop) and the suite's odd ones.
BIBLIOGRAPHY_CATEGORIES = (
    "affix", "collapse", "condition", "date", "decorations", "disambiguate", "display",
    "etal", "form", "fullstyles", "group", "label", "locale", "name", "nameattr",
    "nameorder", "number", "page", "plural", "punctuation", "quotes", "sort",
    "sortseparator", "substitute", "textcase", "variables")

JSON_SECTIONS = frozenset({"INPUT", "INPUT2", "CITATION-ITEMS", "CITATIONS", "BIBENTRIES",
                           "BIBSECTION", "OPTIONS", "LANGPARAMS", "MULTIAFFIX",
                           "ABBREVIATIONS"})
_OPEN_RE = re.compile(r">>=+ ([A-Z0-9-]+) =+>>")
_CLOSE_RE = re.compile(r"<<=+ ([A-Z0-9-]+) =+<<")
_TAG_RE = re.compile(r"<[^>]+>")


def parse_fixture(path: Path) -> dict[str, Any]:
    """A fixture's sections: the lines between `>>===== NAME =====>>` and
    `<<===== NAME =====<<`, JSON ones parsed (citeproc-js's fixture parser reads them so)."""
    text = path.read_text(encoding="utf-8").lstrip("\ufeff")
    sections: dict[str, list[str]] = {}
    name = None
    for line in re.split(r"\r\n|\n|\r", text):
        opening, closing = _OPEN_RE.search(line), _CLOSE_RE.search(line)
        if opening and name is None:
            name = opening.group(1)
            sections[name] = []
        elif closing and closing.group(1) == name:
            name = None
        elif name is not None:
            sections[name].append(line)
    return {key: json.loads("\n".join(lines)) if key in JSON_SECTIONS else "\n".join(lines)
            for key, lines in sections.items()}


def category(name: str) -> str:
    return name.split("_", 1)[0]


def fixture_files(suite: Path) -> list[Path]:
    humans = suite / "processor-tests" / "humans"
    return sorted((humans if humans.is_dir() else suite).glob("*.txt"))


def plain(text: str) -> str:
    """Output as plain text: tags dropped, entities read, white space collapsed."""
    return " ".join(html.unescape(_TAG_RE.sub(" ", text)).split())


# Papershelf's engine, in a worker process ------------------------------------------------


class Unsupported(Exception):
    """A fixture asks for what Papershelf's engine has no way to do."""


def render_papershelf(fixture: dict[str, Any], style_file: Path) -> str:
    """The fixture's output by Papershelf's engine (formats.csl's render_items), written
    as citeproc-js's test runner writes it."""
    from papershelf.formats import csl

    style_file.write_text(fixture["CSL"], encoding="utf-8")
    items = [item if "id" in item else {**item, "id": f"(no id {n})"}  # (citeproc-js: undefined)
             for n, item in enumerate(fixture["INPUT"])]
    by_id = {str(item["id"]): item for item in items}
    mode = fixture["MODE"].strip()
    if mode == "bibliography":
        if fixture.get("BIBSECTION"):
            raise Unsupported("BIBSECTION (a bibliography's selected part)")
        ids = [str(i) for i in by_id]
        if fixture.get("BIBENTRIES"):
            ids = [str(i) for i in fixture["BIBENTRIES"][-1]]
        elif fixture.get("CITATIONS"):
            cited = (str(cite["id"]) for citation in fixture["CITATIONS"]
                     for cite in citation[0]["citationItems"])
            ids = list(dict.fromkeys(cited))
        entries, _cites = csl.render_items([by_id[i] for i in ids], str(style_file))
        body = "".join(f'  <div class="csl-entry">{entry}</div>\n' for entry in entries)
        return f'<div class="csl-bib-body">\n{body}</div>'
    if mode != "citation":
        raise Unsupported(f"mode {mode}")
    if fixture.get("CITATIONS"):
        raise Unsupported("CITATIONS (a document's citations updated one by one)")
    clusters = fixture.get("CITATION-ITEMS") or [[{"id": i} for i in by_id]]
    _entries, cites = csl.render_items(items, str(style_file), False,
                                       [[str(cite["id"]) for cite in cluster]
                                        for cluster in clusters])
    return "\n".join(cites)


def cite_fields(fixture: dict[str, Any]) -> list[str]:
    """What the fixture's cites carry beyond their item (a locator, a prefix, ...):
    render_items takes item ids only."""
    clusters = fixture.get("CITATION-ITEMS") or []
    return sorted({key for cluster in clusters for cite in cluster for key in cite} - {"id"})


def worker(files: Sequence[str]) -> None:
    """Render each fixture file with Papershelf's engine; one result line each."""
    out = sys.stdout
    sys.stdout = sys.stderr  # (whatever the engine prints keeps off the results)
    from papershelf.formats import csl  # noqa: F401  (imported before "ready")

    print(READY, file=out, flush=True)
    with tempfile.TemporaryDirectory(prefix="csl-suite-") as scratch:
        for n, file in enumerate(files):
            path = Path(file)
            line: dict[str, Any] = {"name": path.stem}
            try:
                line["output"] = render_papershelf(parse_fixture(path),
                                                   Path(scratch) / f"style{n}.csl")
            except Exception as exc:  # the fixture fails; the run goes on
                line["error"] = summary(exc)
            print(MARK + json.dumps(line), file=out, flush=True)


def summary(exc: BaseException) -> str:
    kind = "unsupported" if isinstance(exc, Unsupported) else type(exc).__name__
    text = " ".join(str(exc).split())
    return f"{kind}: {text[:160]}" if text else kind


# Running workers, each fixture within a time limit ------------------------------------


@dataclass
class Outcome:
    output: str | None = None
    error: str | None = None
    seconds: float = 0.0


def _lines(stream: Any, into: queue.Queue[str | None]) -> None:
    for line in stream:
        into.put(line)
    into.put(None)


def _last_words(log: Any, since: int) -> str:
    log.seek(since)
    lines = [line.strip() for line in log.read().decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    return lines[-1][:160] if lines else ""


def run_worker(command: Sequence[str], files: Sequence[Path], timeout: float,
               env: dict[str, str] | None = None) -> dict[str, Outcome]:
    """Each of `files` run by `command FILE...` (a worker printing READY, then a MARK line
    of JSON a file, in order): a file without its line within `timeout` seconds, or whose
    worker dies, fails; the worker is started again for the files after it. A worker
    that does not start fails every file left."""
    results: dict[str, Outcome] = {}
    rest = list(files)
    with tempfile.TemporaryFile() as log:
        while rest:
            since = log.seek(0, os.SEEK_END)
            process = subprocess.Popen([*command, *map(str, rest)], stdout=subprocess.PIPE,
                                       stderr=log, stdin=subprocess.DEVNULL, env=env,
                                       text=True, encoding="utf-8")
            try:
                failure = _results(process, rest, timeout, results)
            finally:
                process.kill()
                process.wait()
                assert process.stdout is not None
                process.stdout.close()
            if failure is None:
                continue
            words = _last_words(log, since)
            if failure.startswith("crash"):
                failure = f"{failure} ({process.returncode})" + (f": {words}" if words else "")
            if failure.startswith("worker did not start"):
                failure += f": {words}" if words else ""
                results.update((path.stem, Outcome(error=failure)) for path in rest)
                break
            results[rest.pop(0).stem] = Outcome(error=failure, seconds=timeout)
    return results


def _results(process: subprocess.Popen[str], rest: list[Path], timeout: float,
             results: dict[str, Outcome]) -> str | None:
    """The worker's results into `results` (its files taken off `rest`) until it is done
    (None) or fails over the first file of `rest` (why)."""
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_lines, args=(process.stdout, lines), daemon=True).start()
    ready = False
    started = time.monotonic()
    deadline = started + STARTUP_SECONDS
    while rest:
        try:
            line = lines.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            return f"timeout: no result in {timeout:g} s" if ready else "worker did not start"
        if line is None:  # the worker died over the file it was on
            process.wait()
            return "crash: worker exited" if ready else "worker did not start"
        if line.startswith(READY) or line.startswith(MARK):
            if line.startswith(MARK):
                found = json.loads(line[len(MARK):])
                results[rest.pop(0).stem] = Outcome(found.get("output"), found.get("error"),
                                                    time.monotonic() - started)
            ready = True
            started = time.monotonic()
            deadline = started + timeout
    return None


def run_all(command: Sequence[str], files: Sequence[Path], timeout: float, jobs: int,
            env: dict[str, str] | None = None) -> dict[str, Outcome]:
    """run_worker over `jobs` workers side by side (every jobs-th file each)."""
    results: dict[str, Outcome] = {}
    threads = [threading.Thread(target=lambda share=files[n::jobs]: results.update(
        run_worker(command, share, timeout, env))) for n in range(max(jobs, 1))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def papershelf_command() -> tuple[list[str], dict[str, str]]:
    import papershelf

    code = str(Path(papershelf.__file__).resolve().parents[1])  # the checkout's desktop/
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [code, str(HERE.parent), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return [sys.executable, "-m", "tests.csl_suite", "--worker"], env


def citeprocjs_command(folder: Path) -> tuple[list[str], dict[str, str]]:
    import citeproc

    if not shutil.which("node"):
        raise SystemExit("--citeproc-js: no node on PATH")
    if not (folder / "node_modules" / "citeproc").is_dir():
        raise SystemExit(f"--citeproc-js: no {folder}/node_modules/citeproc "
                         f"(run `npm install citeproc` there)")
    locales = Path(citeproc.__file__).resolve().parent / "data" / "locales"
    env = {**os.environ, "NODE_PATH": str(folder.resolve() / "node_modules")}
    return ["node", str(NODE_RUNNER), str(locales)], env


# The report ---------------------------------------------------------------------------


@dataclass
class Verdict:
    name: str
    passed: bool
    same_text: bool
    failure: str | None  # what kind of failure, if failed
    expected: str = ""
    output: str = ""
    bibliography: bool = True  # the fixture's style has a <bibliography>


def judge(path: Path, outcome: Outcome) -> Verdict:
    fixture = parse_fixture(path)
    expected = fixture.get("RESULT", "")
    bibliography = "<bibliography" in fixture.get("CSL", "")
    if outcome.output is None:
        return Verdict(path.stem, False, False, outcome.error or "no result", expected,
                       bibliography=bibliography)
    output = outcome.output.replace("\r\n", "\n").replace("\r", "\n")
    if output == expected:
        return Verdict(path.stem, True, True, None, expected, output, bibliography)
    same_text = plain(output) == plain(expected)
    if same_text:
        failure = "markup only"
    elif fields := cite_fields(fixture):
        failure = f"cites carry {', '.join(fields)} (not passed to render_items)"
    else:
        failure = "different output"
    return Verdict(path.stem, False, same_text, failure, expected, output, bibliography)


@dataclass
class Tally:
    fixtures: int = 0
    passed: int = 0
    same_text: int = 0
    failures: Counter[str] = field(default_factory=Counter)

    def add(self, verdict: Verdict) -> None:
        self.fixtures += 1
        self.passed += verdict.passed
        self.same_text += verdict.same_text
        if verdict.failure:
            self.failures[_kind(verdict.failure)] += 1


def _kind(failure: str) -> str:
    """A failure's kind, without the particulars (for counting)."""
    return re.sub(r"\d+(\.\d+)?(?= s\b)|'[^']*'|\"[^\"]*\"|/\S+|\(\d+\)", "…", failure)[:90]


def tally(verdicts: Sequence[Verdict]) -> dict[str, Tally]:
    by_category: dict[str, Tally] = {}
    for verdict in verdicts:
        by_category.setdefault(category(verdict.name), Tally()).add(verdict)
    return by_category


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def table(ours: dict[str, Tally], theirs: dict[str, Tally] | None) -> list[str]:
    """The Markdown table: a row a category, the bibliography's ones first with their
    total, then the others and the whole suite's total."""
    head = "| category | fixtures | Papershelf | (text) |"
    rule = "|---|---|---|---|"
    if theirs is not None:
        head += " citeproc-js | (text) |"
        rule += "---|---|"
    rows = [head, rule]

    def row(label: str, mine: Tally, js: Tally | None) -> str:
        cells = [label, str(mine.fixtures), percent(mine.passed, mine.fixtures),
                 percent(mine.same_text, mine.fixtures)]
        if theirs is not None:
            js = js or Tally()
            cells += [percent(js.passed, js.fixtures), percent(js.same_text, js.fixtures)]
        return "| " + " | ".join(cells) + " |"

    def total(names: Sequence[str], source: dict[str, Tally]) -> Tally:
        whole = Tally()
        for name in names:
            part = source.get(name, Tally())
            whole.fixtures += part.fixtures
            whole.passed += part.passed
            whole.same_text += part.same_text
        return whole

    chosen = [name for name in sorted(ours) if name in BIBLIOGRAPHY_CATEGORIES]
    others = [name for name in sorted(ours) if name not in BIBLIOGRAPHY_CATEGORIES]
    for names, label in ((chosen, "**bibliography's categories**"), (others, None)):
        for name in names:
            rows.append(row(name, ours[name], (theirs or {}).get(name)))
        if label and names:
            rows.append(row(label, total(names, ours),
                            total(names, theirs) if theirs is not None else None))
    if others:
        rows.append(row("**all**", total(sorted(ours), ours),
                        total(sorted(ours), theirs) if theirs is not None else None))
    return rows


def by_bibliography(engine: str, verdicts: Sequence[Verdict], has: bool) -> str:
    """The pass rate, over the bibliography's categories, of the fixtures whose style has
    (or has not) a <bibliography>."""
    part = [verdict for verdict in verdicts if verdict.bibliography == has
            and category(verdict.name) in BIBLIOGRAPHY_CATEGORIES]
    passed = sum(verdict.passed for verdict in part)
    return (f"{engine}, the bibliography's categories, styles {'with' if has else 'without'}"
            f" a <bibliography>: {passed} of {len(part)} ({percent(passed, len(part))})")


def report(files: Sequence[Path], timeout: float, jobs: int,
           citeprocjs: Path | None) -> tuple[list[Verdict], list[Verdict] | None]:
    """Papershelf's verdict on each fixture, and citeproc-js's if its folder is given."""
    engines: list[tuple[list[str], dict[str, str]]] = [papershelf_command()]
    if citeprocjs is not None:
        engines.append(citeprocjs_command(citeprocjs))
    verdicts = []
    for command, env in engines:
        outcomes = run_all(command, files, timeout, jobs, env)
        verdicts.append([judge(path, outcomes[path.stem]) for path in files])
    return verdicts[0], verdicts[1] if citeprocjs is not None else None


def _option(argv: list[str], name: str, convert: Callable[[str], Any], default: Any) -> Any:
    if name not in argv:
        return default
    at = argv.index(name)
    value = argv[at + 1]
    del argv[at:at + 2]
    return convert(value)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--worker"]:
        worker(argv[1:])
        return 0
    show = _option(argv, "--show", int, 0)
    timeout = _option(argv, "--timeout", float, 10.0)
    jobs = _option(argv, "--jobs", int, 2)
    citeprocjs = _option(argv, "--citeproc-js", Path, None)
    wanted = _option(argv, "--category", lambda text: set(text.split(",")), None)
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    files = [path for path in fixture_files(Path(argv[0]))
             if wanted is None or category(path.stem) in wanted]
    started = time.monotonic()
    ours, theirs = report(files, timeout, jobs, citeprocjs)
    print(f"{len(files)} fixtures, {time.monotonic() - started:.0f} s")
    print("\n".join(table(tally(ours), tally(theirs) if theirs is not None else None)))
    for engine, verdicts in (("Papershelf", ours), ("citeproc-js", theirs or [])):
        for has in (True, False):
            print(by_bibliography(engine, verdicts, has))
    failures: Counter[str] = Counter()
    for counted in tally(ours).values():
        failures.update(counted.failures)
    print("\nPapershelf's failures by kind:")
    for kind, count in failures.most_common(15):
        print(f"  {count:4}  {kind}")
    for verdict in [v for v in ours if not v.passed][:show]:
        print(f"\n{verdict.name}: {verdict.failure}\n  expected: {verdict.expected!r}"
              f"\n  ours:     {verdict.output!r}")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main(sys.argv[1:]))
