"""Every relative link in the docs leads somewhere: the guides and their reference pages link both ways (issue 30),
so a moved section or a renamed file must not leave a link pointing at nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "benchmarks" / "README.md",
        *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "reference").glob("*.md"))]
LINK = re.compile(r"\]\((?!https?:|mailto:)([^)\s]+)\)")
FENCE = re.compile(r"```.*?```", re.S)


def anchors(doc: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings (lower case, punctuation dropped, spaces to hyphens)."""
    seen: dict[str, int] = {}
    found = set()
    for line in FENCE.sub("", doc.read_text(encoding="utf-8")).splitlines():
        if not line.startswith("#"):
            continue
        slug = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def links(doc: Path) -> list[str]:
    return LINK.findall(FENCE.sub("", doc.read_text(encoding="utf-8")))


def test_the_anchors_are_githubs() -> None:
    doc = ROOT / "docs" / "reference" / "protocol-messages.md"
    assert {"server--client", "the-json-schema"} <= anchors(doc)
    assert "the-master-measured-issue-10" in anchors(ROOT / "docs" / "reference" / "bots-measurements.md")


@pytest.mark.parametrize("doc", DOCS, ids=[d.relative_to(ROOT).as_posix() for d in DOCS])
def test_every_relative_link_names_a_file_and_a_heading_that_exist(doc: Path) -> None:
    broken = []
    for target in links(doc):
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            broken.append(f"{target}: no file {file}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {file.relative_to(ROOT)}")
    assert broken == []


def test_each_reference_page_links_back_to_its_guide_and_the_guide_to_it() -> None:
    for ref in sorted((ROOT / "docs" / "reference").glob("*.md")):
        guides = {(ref.parent / t.partition("#")[0]).resolve() for t in links(ref)} & set(DOCS)
        guides = {g for g in guides if g.parent == ROOT / "docs"}
        assert guides, f"{ref.name} links to no guide in docs/"
        assert any(ref.name in t for g in guides for t in links(g)), f"no guide links back to {ref.name}"
