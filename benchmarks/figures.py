"""The measured figures quoted in README.md and docs/*.md, checked against the benchmark JSON that holds them.

A figure in the Markdown is written as a reader wants it (``11,400 rounds/s``, ``+3.27 [+2.62, +3.93]``,
``54.6%``, ``×2.3``) and followed, on the same line, by a tag naming where its value lives::

    10,300 rounds/s<!-- fig: research_throughput.json: engine.rounds_per_s -->
    +3.27 [+2.62, +3.93]<!-- fig: archive/master_vs_expert.classic.2p.256worlds.json: margin, ci95[0], ci95[1] -->

The file is in ``benchmarks/results/``; each comma-separated expression is a path into its JSON
(``a.b``, ``a["key-with-dash"]``, ``a[0]``) with plain arithmetic (``won * 100``, ``p99_s * 1000``,
``x / y``, ``-margin``, ``**``), ``abs``, ``min``, ``max``, ``median``, ``sqrt``, and ``file("other.json")``
for a figure derived from two runs. A tag with N expressions checks the last N numbers written between the
previous tag on the line (or the line's start) and itself, in order.

A number matches when it is the value rounded to the precision the text shows: its decimals, or for a whole
number its last non-zero digit, but never coarser than two significant digits (``11,400`` is 11,350–11,450,
``2,000`` is 1,950–2,050, ``1000`` is 950–1,050).

``untagged`` finds text that looks measured (rates ``/s``, ``ms``, ``×`` ratios, percentages, signed
decimals, ``[lo, hi]`` intervals, ``million``) with no tag covering it, so a new figure cannot skip the check;
``ALLOWED`` lists the few such texts that are not measurements (rule constants, targets, sizes).

    python benchmarks/figures.py          # every mismatch and untagged figure, exit 1 if any
"""

from __future__ import annotations

import ast
import json
import math
import re
import statistics
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"

TAG = re.compile(r"<!--\s*fig:\s*(?P<file>[\w.\-/]+\.json)\s*:\s*(?P<exprs>.*?)\s*-->")
NUMBER = re.compile(
    r"(?<![\w.,\-])(?P<sign>[+\-−])?(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?(?!\w|-[A-Za-z]|\.\d)"
)
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "abs": abs, "min": min, "max": max, "median": statistics.median, "len": len, "sum": sum, "sqrt": math.sqrt,
}

# Text that looks measured but is not: (file, exact text on the line). Keep this short.
ALLOWED: set[tuple[str, str]] = {
    ("README.md", "The target is 10,000"),
    ("docs/play.md", "A♠ (+10.0)"),
    ("docs/reference/protocol-messages.md", "[0, 2]"),
    ("docs/reference/scaling-measurements.md", "the p99 target of 100 ms"),
    ("docs/reference/scaling-measurements.md", "keeps p99 under 100 ms"),
    ("docs/security.md", "The goal: p99 under 100 ms"),
    ("docs/reference/observation.md", "52 × 52"),
    ("docs/research.md", "suit × 13"),
    ("docs/reference/research-figures.md", "500,000 random 2-player rounds/s"),
    ("docs/reference/research-figures.md", "1M steps/s"),
    ("docs/reference/bots-measurements.md", "the 10,000/s target"),
    ("docs/bots.md", "5 presets × 2/3/4 players × 4 option variants × 40"),
    ("docs/web.md", "4×13"),
    ("docs/web.md", "44×44"),
    ("docs/web.md", "no task runs 50 ms"),
    ("docs/web.md", "no long task of 50 ms"),
    ("docs/web.md", "at most 1% may differ"),
}

# Patterns of text that reads as a measurement; each must be covered by a tag.
MEASURED = [
    re.compile(r"\d[\d,.]*(?:\s+million)?(?:\s+[\w\-()]+){0,3}?\s*[A-Za-z]+/s\b"),  # 11,400 rounds/s
    re.compile(r"\d[\d,.]*/s\b"),  # 60,700/s
    re.compile(r"\d[\d,.]*\s*ms\b"),  # 12 ms
    re.compile(r"(?<![\d\s])\s?×\s?\d[\d,.]*|(?<![\d×])\d[\d,.]*×(?!\s?\d)"),  # ×2.3, 131×
    re.compile(r"(?<![\d.])(?!95%)\d[\d,.]*%"),  # 54.6% (95% is the confidence level of an interval)
    re.compile(r"(?<![\w.])[+−]\d[\d,]*\.\d+"),  # +3.27
    re.compile(r"\[[+\-−]?\d[\d,.]*, [+\-−]?\d[\d,.]*\]"),  # [+2.62, +3.93]
    re.compile(r"\d[\d,.]*\s+million"),  # 1.4 million
]


@dataclass(frozen=True)
class Figure:
    """One number in a document and the JSON value it quotes."""

    doc: str
    line: int
    text: str
    shown: float
    file: str
    expr: str
    value: float | None
    error: str | None

    @property
    def ok(self) -> bool:
        return self.error is None

    def describe(self) -> str:
        where = f"{self.doc}:{self.line}: {self.text!r}"
        return f"{where} <- {self.file}: {self.expr}: {self.error}"


def documents() -> list[Path]:
    """README.md, every docs/*.md and docs/reference/*.md: the files whose figures readers see."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
            *sorted((ROOT / "docs" / "reference").glob("*.md"))]


CODE_SPAN = re.compile(r"`[^`]*`")


def prose_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The lines of a Markdown file outside fenced code blocks, numbered from 1, inline code blanked out.

    Code is commands and examples (``--deals 1000``, a tag's syntax), never a quoted figure.
    """
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, CODE_SPAN.sub(lambda m: " " * len(m[0]), line)


def load(file: str, cache: dict[str, Any], results: Path) -> Any:
    """The parsed JSON of a results file, read once."""
    if file not in cache:
        cache[file] = json.loads((results / file).read_text(encoding="utf-8"))
    return cache[file]


def name(path: Path) -> str:
    """A document's name as reports give it: relative to the repository when inside it."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


def evaluate(node: ast.AST, data: Any, other: Callable[[str], Any] | None = None) -> Any:
    """Evaluate a figure expression: JSON paths, numbers, + - * /, unary minus and a few functions.

    ``file("other.json")`` is another results file (for a figure derived from two runs), given ``other``.
    """
    def sub(child: ast.AST) -> Any:
        return evaluate(child, data, other)

    if isinstance(node, ast.Expression):
        return sub(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float | str):
        return node.value
    if isinstance(node, ast.Name):
        if not isinstance(data, dict) or node.id not in data:
            raise KeyError(node.id)
        return data[node.id]
    if isinstance(node, ast.Attribute):
        base = sub(node.value)
        if not isinstance(base, dict) or node.attr not in base:
            raise KeyError(node.attr)
        return base[node.attr]
    if isinstance(node, ast.Subscript):
        base, key = sub(node.value), sub(node.slice)
        return base[key]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = sub(node.operand)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div | ast.Pow):
        left, right = sub(node.left), sub(node.right)
        ops: dict[type, Callable[[Any, Any], Any]] = {
            ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
            ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a**b,
        }
        return ops[type(node.op)](left, right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        args = [sub(arg) for arg in node.args]
        if node.func.id == "file" and other is not None and len(args) == 1 and isinstance(args[0], str):
            return other(args[0])
        if node.func.id in FUNCTIONS:
            return FUNCTIONS[node.func.id](*args)
    raise ValueError(f"unsupported expression {ast.unparse(node)!r}")


def split_exprs(exprs: str) -> list[str]:
    """The comma-separated expressions of a tag (commas inside brackets or parentheses do not split)."""
    tree = ast.parse(f"({exprs},)", mode="eval")
    assert isinstance(tree.body, ast.Tuple)
    return [ast.unparse(elt) for elt in tree.body.elts]


def parse_number(match: re.Match[str]) -> float:
    """The value of a number as written: commas dropped, a minus sign (- or −) kept."""
    value = float(match["int"].replace(",", "") + (match["frac"] or ""))
    return -value if match["sign"] in ("-", "−") else value


def tolerance(match: re.Match[str]) -> float:
    """Half a unit of the precision the text shows (decimals, else last non-zero digit, at least two digits)."""
    if match["frac"]:
        return 0.5 * 10 ** -(len(match["frac"]) - 1)
    digits = match["int"].replace(",", "")
    zeros = len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
    zeros = min(zeros, max(0, len(digits) - 2))
    return 0.5 * 10**zeros


def figures(paths: list[Path] | None = None, results: Path = RESULTS) -> list[Figure]:
    """Every tagged figure of the documents, each with its JSON value and an error if they disagree."""
    cache: dict[str, Any] = {}
    found: list[Figure] = []
    for path in paths or documents():
        doc = name(path)
        for line_no, line in prose_lines(path):
            start = 0
            for tag in TAG.finditer(line):
                segment = line[start:tag.start()]
                start = tag.end()
                numbers = list(NUMBER.finditer(segment))
                file = tag["file"]
                try:
                    exprs = split_exprs(tag["exprs"])
                except SyntaxError as exc:
                    found.append(Figure(doc, line_no, tag[0], math.nan, file, tag["exprs"], None, f"bad tag: {exc}"))
                    continue
                if len(numbers) < len(exprs):
                    error = f"the tag has {len(exprs)} expressions but only {len(numbers)} numbers precede it"
                    found.append(Figure(doc, line_no, segment.strip(), math.nan, file, tag["exprs"], None, error))
                    continue
                for number, expr in zip(numbers[len(numbers) - len(exprs):], exprs, strict=True):
                    found.append(check(doc, line_no, number, file, expr, cache, results))
    return found


def check(
    doc: str, line_no: int, number: re.Match[str], file: str, expr: str, cache: dict[str, Any], results: Path
) -> Figure:
    """Compare one written number with the value of its expression."""
    shown = parse_number(number)
    try:
        value = evaluate(ast.parse(expr, mode="eval"), load(file, cache, results),
                         lambda other: load(other, cache, results))
    except FileNotFoundError:
        return Figure(doc, line_no, number[0], shown, file, expr, None, f"no file benchmarks/results/{file}")
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        return Figure(doc, line_no, number[0], shown, file, expr, None, f"no such value ({exc!r})")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return Figure(doc, line_no, number[0], shown, file, expr, None, f"not a number: {value!r}")
    if abs(value - shown) > tolerance(number) + 1e-9 * max(1.0, abs(value)):
        return Figure(doc, line_no, number[0], shown, file, expr, value, f"the JSON says {value:,.6g}")
    return Figure(doc, line_no, number[0], shown, file, expr, value, None)


def roots(expr: str, file: str, target: str) -> set[str]:
    """The top-level keys of ``target`` that a tag's expression on ``file`` reads (directly or via ``file(...)``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(expr, mode="eval")):
        if isinstance(node, ast.Name) and file == target and node.id not in FUNCTIONS and node.id != "file":
            found.add(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call):
            call = node.value
            if isinstance(call.func, ast.Name) and call.func.id == "file" and call.args:
                arg = call.args[0]
                if isinstance(arg, ast.Constant) and arg.value == target:
                    found.add(node.attr)
    return found


def quoted_keys(target: str, found: list[Figure] | None = None) -> set[str]:
    """The top-level keys of a results file that some tagged figure quotes."""
    return {key for f in (found if found is not None else figures()) for key in roots(f.expr, f.file, target)}


def covered_spans(line: str) -> list[tuple[int, int]]:
    """Character spans of the line that tags account for: each tag, and each number it checks."""
    spans: list[tuple[int, int]] = []
    start = 0
    for tag in TAG.finditer(line):
        try:
            count = len(split_exprs(tag["exprs"]))
        except SyntaxError:
            count = 0
        numbers = list(NUMBER.finditer(line, start, tag.start()))
        spans.extend(m.span() for m in numbers[len(numbers) - count:] if count)
        spans.append(tag.span())
        start = tag.end()
    return spans


def untagged(paths: list[Path] | None = None) -> list[str]:
    """Numbers in measured-looking text that no tag checks (and not in ``ALLOWED``): 'file:line: text'."""
    problems: list[str] = []
    for path in paths or documents():
        doc = name(path)
        for line_no, line in prose_lines(path):
            spans = covered_spans(line)
            allowed = [(m.start(), m.end()) for d, text in ALLOWED if d == doc
                       for m in re.finditer(re.escape(text), line)]
            loose: dict[tuple[int, int], str] = {}
            for pattern in MEASURED:
                for hit in pattern.finditer(line):
                    if any(a <= hit.start() and hit.end() <= b for a, b in allowed):
                        continue
                    for number in NUMBER.finditer(line, hit.start(), hit.end()):
                        if not any(a <= number.start() and number.end() <= b for a, b in spans):
                            loose.setdefault(number.span(), hit[0].strip())
            problems.extend(f"{doc}:{line_no}: {line[a:b]!r} in {text!r}" for (a, b), text in sorted(loose.items()))
    return problems


def main() -> int:
    """Print every mismatch and every untagged figure; exit 1 if there is any."""
    found = figures()
    bad = [f.describe() for f in found if not f.ok]
    loose = untagged()
    for line in bad:
        print("mismatch:", line)
    for line in loose:
        print("untagged:", line)
    transcribed = sum(f.file == "unrecorded.json" for f in found)
    print(f"{len(found)} tagged figures ({transcribed} from unrecorded.json: rerun to retire them), "
          f"{len(bad)} mismatches, {len(loose)} untagged", file=sys.stderr)
    return 1 if bad or loose else 0


if __name__ == "__main__":
    sys.exit(main())
