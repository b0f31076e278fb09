"""Every measured figure in README.md and docs/*.md matches the benchmark JSON that holds it (issue 15 §6).

The figures are tagged in the Markdown (``<!-- fig: FILE.json: PATH -->``, see ``benchmarks/figures.py``); a
figure that looks measured but has no tag fails too, so two documents cannot drift apart again.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _figures_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("doc_figures", ROOT / "benchmarks" / "figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


figures = _figures_module()


# --- the mechanism, on a small document -------------------------------------------------------------------------


@pytest.fixture
def results(tmp_path: Path) -> Path:
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "run.json").write_text(json.dumps({
        "engine": {"rounds_per_s": 11432.7}, "pair": {"margin": {"mean": -7.835, "ci95": [-8.538, -7.132]}},
        "won": 0.546, "p99_s": 0.1491, "fast": 2.499e6, "slow": 17278.5, "quick": 42666.3,
    }))
    return folder


def check(tmp_path: Path, results: Path, text: str) -> list[str]:
    doc = tmp_path / "doc.md"
    doc.write_text(text, encoding="utf-8")
    return [f.describe() for f in figures.figures([doc], results) if not f.ok]


@pytest.mark.parametrize("text", [
    "ran 11,400 rounds/s<!-- fig: run.json: engine.rounds_per_s -->",
    "ran 11,433 rounds/s<!-- fig: run.json: engine.rounds_per_s -->",
    "ran 11,000 rounds/s<!-- fig: run.json: engine.rounds_per_s -->",  # two significant digits
    "| −7.8 [−8.5, −7.1] |<!-- fig: run.json: pair.margin.mean, pair.margin.ci95[0], pair.margin.ci95[1] -->",
    "loses by 7.8 [7.1, 8.5]<!-- fig: run.json: -pair.margin.mean, -pair.margin.ci95[1], -pair.margin.ci95[0] -->",
    "won 54.6%<!-- fig: run.json: won * 100 --> of rounds, p99 149 ms<!-- fig: run.json: p99_s * 1000 -->",
    "2.5 million<!-- fig: run.json: fast / 1e6 --> and ×2.5<!-- fig: run.json: quick / slow -->",
    "```\n1 rounds/s<!-- fig: run.json: won -->\n```\n",  # code blocks are not prose
    "a tag is written `<!-- fig: FILE.json: PATH -->`; `xeri bench --seconds 3` runs 3 s",  # nor is inline code
])
def test_a_figure_that_matches_its_json_passes(tmp_path: Path, results: Path, text: str) -> None:
    assert check(tmp_path, results, text) == []


@pytest.mark.parametrize(("text", "says"), [
    ("ran 10,700 rounds/s<!-- fig: run.json: engine.rounds_per_s -->", "the JSON says 11,432.7"),
    ("ran 11,430.0 rounds/s<!-- fig: run.json: engine.rounds_per_s -->", "the JSON says"),
    ("−7.8 [−8.5, −7.2]<!-- fig: run.json: pair.margin.mean, pair.margin.ci95[0], pair.margin.ci95[1] -->",
     "the JSON says -7.132"),
    ("+7.8<!-- fig: run.json: pair.margin.mean -->", "the JSON says -7.835"),
    ("×2.3<!-- fig: run.json: quick / slow -->", "the JSON says 2.469"),
    ("12 ms<!-- fig: run.json: p99_s -->", "the JSON says 0.1491"),
    ("12 ms<!-- fig: run.json: p99 -->", "no such value"),
    ("12 ms<!-- fig: gone.json: p99_s -->", "no file"),
    ("12 ms<!-- fig: run.json: won, p99_s -->", "only 1 numbers precede it"),
    ("12 ms<!-- fig: run.json: engine -->", "not a number"),
    ("12 ms<!-- fig: run.json: __import__('os') -->", "unsupported expression"),
])
def test_a_figure_that_disagrees_fails_naming_the_line_the_text_and_the_value(
    tmp_path: Path, results: Path, text: str, says: str
) -> None:
    problems = check(tmp_path, results, "title\n\n" + text)
    assert len(problems) == 1
    assert problems[0].startswith("doc.md:3: ")
    assert says in problems[0]


@pytest.mark.parametrize(("text", "loose"), [
    ("the engine ran 11,400 rounds/s on one core", ["11,400"]),
    ("and 60,700/s compiled", ["60,700"]),
    ("a p99 of 12 ms", ["12"]),
    ("compiled playouts are ×2.3 faster", ["2.3"]),
    ("131× the single env", ["131"]),
    ("won 54.6% of its rounds", ["54.6"]),
    ("a margin of +3.27 a round", ["+3.27"]),
    ("an interval of [+2.62, +3.93]", ["+2.62", "+3.93"]),
    ("2.5 million rounds", ["2.5"]),
    ("tagged 11,400 rounds/s<!-- fig: run.json: engine.rounds_per_s --> but not 10,700 rounds/s", ["10,700"]),
])
def test_a_figure_without_a_tag_is_found(tmp_path: Path, text: str, loose: list[str]) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(text, encoding="utf-8")
    found = figures.untagged([doc])
    assert [line.split(": ", 1)[1].split(" in ")[0].strip("'") for line in found] == loose
    assert all(line.startswith("doc.md:1: ") for line in found)


@pytest.mark.parametrize("text", [
    "a 2-player round on a 2-core machine deals 6 cards, 52 in all",
    "tagged 11,400 rounds/s<!-- fig: run.json: engine.rounds_per_s -->",
    "p99 149 ms<!-- fig: run.json: p99_s * 1000 -->",
])
def test_plain_numbers_and_tagged_figures_are_not_flagged(tmp_path: Path, text: str) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(text, encoding="utf-8")
    assert figures.untagged([doc]) == []


# --- the real documents ------------------------------------------------------------------------------------------


def test_the_documents_have_tagged_figures() -> None:
    quoted = {f.doc for f in figures.figures()}
    assert {"README.md", "docs/research.md", "docs/bots.md", "docs/reference/bots-measurements.md",
            "docs/reference/research-figures.md", "docs/reference/scaling-measurements.md"} <= quoted


def test_every_tagged_figure_matches_its_benchmark_json() -> None:
    problems = [f.describe() for f in figures.figures() if not f.ok]
    assert problems == [], "\n".join(problems)


def test_every_measured_looking_figure_is_tagged() -> None:
    problems = figures.untagged()
    assert problems == [], "untagged figures (tag them, or add a non-measured text to ALLOWED):\n" + "\n".join(
        problems)


def test_the_allowlist_has_no_stale_entries() -> None:
    texts = {doc: (ROOT / doc).read_text(encoding="utf-8") for doc, _ in figures.ALLOWED}
    stale = [(doc, text) for doc, text in figures.ALLOWED if text not in texts[doc]]
    assert stale == []


def test_the_level_margins_that_xeri_rules_prints_match_their_json(tmp_path: Path) -> None:
    """``LEVEL_MARGINS`` (printed by ``xeri rules`` and ``xeri play --help``) quote the same runs as docs/bots.md."""
    from xeri.bots.registry import LEVEL_MARGINS

    sources = {"medium": "greedy_vs_random.classic.2p.json", "hard": "expert_vs_greedy.classic.2p.json",
               "strong": "learned_vs_expert.classic.2p.json", "master": "master_vs_learned.classic.2p.json"}
    assert set(LEVEL_MARGINS) == set(sources)
    doc = tmp_path / "levels.md"
    doc.write_text("\n".join(
        f"{LEVEL_MARGINS[level].split(' over ')[0]}<!-- fig: {file}: margin.mean, margin.ci95[0], margin.ci95[1] -->"
        for level, file in sources.items()), encoding="utf-8")
    found = figures.figures([doc])
    assert len(found) == 3 * len(sources)
    assert [f.describe() for f in found if not f.ok] == []


def test_every_transcribed_figure_says_where_it_came_from_and_is_still_quoted() -> None:
    """``unrecorded.json`` holds figures whose runs left no JSON: each names its source, none outlives its quote."""
    entries = json.loads((figures.RESULTS / "unrecorded.json").read_text(encoding="utf-8"))
    groups = {key: value for key, value in entries.items() if key != "note"}
    assert all(isinstance(value, dict) and value.get("source") for value in groups.values())
    orphans = set(groups) - figures.quoted_keys("unrecorded.json")
    assert orphans == set(), f"no document quotes these any more; remove them from unrecorded.json: {sorted(orphans)}"


def test_the_ladders_at_the_other_tables_match_their_json(tmp_path: Path) -> None:
    """``LEVEL_MARGINS_AT`` (printed by ``xeri rules``) quotes ``benchmarks/bots_variants.py``'s runs, and says so
    where a level is not shown above the one below (its interval reaches 0)."""
    from xeri.bots.registry import LEVEL_MARGINS_AT, LEVEL_TABLES, level_table_lines

    files = {"medium": "greedy_vs_random", "hard": "expert_vs_greedy", "strong": "strong_vs_expert",
             "master": "master_vs_strong"}
    assert set(LEVEL_MARGINS_AT) == set(LEVEL_TABLES)
    lines = []
    for table, levels in LEVEL_MARGINS_AT.items():
        assert list(levels) == list(files), table
        for level, margin in levels.items():
            file = f"{files[level]}.{LEVEL_TABLES[table]}.json"
            data = json.loads((figures.RESULTS / file).read_text(encoding="utf-8"))
            line = next(x for x in level_table_lines() if x.startswith(table))
            said = f"{level} {margin} (not shown above)" in line
            assert said == (data["margin"]["ci95"][0] <= 0), (table, level)
            lines.append(f"{margin}<!-- fig: {file}: margin.mean, margin.ci95[0], margin.ci95[1] -->")
    doc = tmp_path / "ladders.md"
    doc.write_text("\n".join(lines), encoding="utf-8")
    found = figures.figures([doc])
    assert len(found) == 3 * len(lines)
    assert [f.describe() for f in found if not f.ok] == []
