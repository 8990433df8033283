"""The one Russian vocabulary: no form that docs/glossary.md forbids, anywhere in Russian.

docs/glossary.md lists each game term with its one Russian form and the forms not to use;
its last section says exactly how this guard reads it. The guard scans:

* the Russian wiki pages, ``wiki/content/*.ru.md`` (front matter included), after taking
  out code, macro calls, link targets and Markdown emphasis;
* every ``msgstr`` of the Russian catalogue, ``locale/ru/LC_MESSAGES/django.po``, after
  taking out ``<code>…</code>`` and HTML tags;
* the Russian texts the demo data loads (combo names, booster pool names and
  descriptions);
* the templates, for entries with a Cyrillic letter only.

A failure names the file and line, the form found, the form to use instead (the glossary's
*Russian* column) and the term, so that whoever brings new strings can fix them at once.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
GLOSSARY = ROOT / "docs" / "glossary.md"
RU_PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
CONTENT = ROOT / "wiki" / "content"
TEMPLATES = ROOT / "templates"

HEADER = ["English", "Russian", "Do not use", "Notes"]
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


# ---------------------------------------------------------------------------
# Reading the glossary (its section "How the guard test reads this file")


def glossary_rows(text: str) -> list[dict[str, str]]:
    rows, in_table = [], False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|"):
            in_table = False
        elif cells == HEADER:
            in_table = True
        elif in_table and not set(line) <= set("|-: "):
            rows.append(dict(zip(HEADER, cells, strict=False)))
    return rows


def fold(text: str) -> str:
    return text.replace("ё", "е").replace("Ё", "Е")


def entry_pattern(entry: str) -> re.Pattern[str]:
    sensitive = entry.startswith("=")
    words = (entry[1:] if sensitive else entry).split(" ")
    parts = [
        re.escape(fold(w[:-1])) + r"\w*" if w.endswith("*") else re.escape(fold(w)) for w in words
    ]
    flags = 0 if sensitive else re.IGNORECASE
    return re.compile(r"(?<!\w)" + r"\s+".join(parts) + r"(?!\w)", flags)


@dataclass(frozen=True)
class Forbidden:
    term: str  # the English term
    use: str  # the Russian column: the form to use instead
    entry: str  # the forbidden entry as written in the glossary
    pattern: re.Pattern[str]

    @property
    def cyrillic(self) -> bool:
        return bool(CYRILLIC.search(self.entry))


def _plain_cell(cell: str) -> str:
    """A Markdown cell as text: no emphasis, no backticks."""
    return re.sub(r"[*`]", "", cell)


def forbidden_entries(text: str) -> list[Forbidden]:
    return [
        Forbidden(
            row["English"],
            _plain_cell(row["Russian"]),
            entry,
            entry_pattern(entry),
        )
        for row in glossary_rows(text)
        for entry in re.findall(r"`([^`]+)`", row.get("Do not use", ""))
    ]


# ---------------------------------------------------------------------------
# The Russian texts, line by line, as the glossary says to read them

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`\n]*`")
MACRO = re.compile(r"\{\{.*?\}\}")
WIKI_LINK_LABELLED = re.compile(r"\[\[[^\]|\n]*\|([^\]\n]*)\]\]")
WIKI_LINK_BARE = re.compile(r"\[\[[^\]\n]*\]\]")
LINK_TARGET = re.compile(r"\]\([^)\n]*\)")
CODE_TAG = re.compile(r"<code>.*?</code>", re.DOTALL)
HTML_TAG = re.compile(r"<[^>\n]+>")


def markdown_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text to check) for a Russian wiki page."""
    lines, in_fence = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        line = INLINE_CODE.sub(" ", line)
        line = MACRO.sub(" ", line)
        line = WIKI_LINK_LABELLED.sub(r"\1", line)
        line = WIKI_LINK_BARE.sub(" ", line)
        line = LINK_TARGET.sub("]", line)
        lines.append((number, line.replace("*", "")))
    return lines


def catalogue_lines(path: Path) -> list[tuple[int, str]]:
    """(line number of the msgstr, its text) for every translation in a catalogue."""
    lines = []
    for entry in polib.pofile(str(path)):
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            text = HTML_TAG.sub(" ", CODE_TAG.sub(" ", text))
            lines.append((_msgstr_line(path, entry), text))
    return lines


_PO_LINES: dict[Path, list[str]] = {}


def _msgstr_line(path: Path, entry: polib.POEntry) -> int:
    """The line of the entry's first ``msgstr`` (polib gives the line of its ``msgid``)."""
    raw = _PO_LINES.setdefault(path, path.read_text(encoding="utf-8").splitlines())
    for number in range(max(entry.linenum - 1, 0), len(raw)):
        if raw[number].startswith("msgstr"):
            return number + 1
    return entry.linenum


def demo_data_lines() -> list[tuple[str, int, str]]:
    """(where, 0, text) for the Russian texts the demo data loads into the database."""
    from cards.generator import _COMBO_THEMES
    from packs.demo import DEMO_POOLS

    texts = [("cards/generator.py (combo name)", theme.name_ru) for theme in _COMBO_THEMES]
    for pool in DEMO_POOLS:
        texts.append((f"packs/demo.py (pool {pool.slug}, name)", pool.name_ru))
        texts.append((f"packs/demo.py (pool {pool.slug}, description)", pool.description_ru))
    return [(where, 0, text) for where, text in texts]


@dataclass(frozen=True)
class Finding:
    where: str
    line: int
    found: str
    rule: Forbidden

    def __str__(self) -> str:
        at = f"{self.where}:{self.line}" if self.line else self.where
        return (
            f"{at}: «{self.found}» — write {self.rule.use} instead "
            f"(glossary term “{self.rule.term}”, forbidden form `{self.rule.entry}`)"
        )


def scan(
    where: str, lines: list[tuple[int, str]], rules: list[Forbidden], *, cyrillic_only=False
) -> list[Finding]:
    # One search per rule over all the lines joined by NUL (which neither \w nor \s
    # matches, so no finding spans two lines): a tenth of the time of a search per line.
    starts, texts, offset = [], [], 0
    for _number, text in lines:
        starts.append(offset)
        texts.append(fold(text))
        offset += len(text) + 1
    joined = "\x00".join(texts)
    findings = []
    for rule in rules:
        if cyrillic_only and not rule.cyrillic:
            continue
        for match in rule.pattern.finditer(joined):
            i = bisect.bisect_right(starts, match.start()) - 1
            number, text = lines[i]
            found = text[match.start() - starts[i] : match.end() - starts[i]]
            findings.append(Finding(where, number, found, rule))
    return sorted(findings, key=lambda f: f.line)


def report(findings: list[Finding]) -> str:
    return (
        f"{len(findings)} form(s) docs/glossary.md forbids:\n"
        + "\n".join(f"  {f}" for f in findings)
        + "\nSee docs/glossary.md for the term's notes and examples."
    )


# ---------------------------------------------------------------------------
# The tests


@pytest.fixture(scope="module")
def rules() -> list[Forbidden]:
    return forbidden_entries(GLOSSARY.read_text(encoding="utf-8"))


def test_glossary_has_terms_and_forbidden_forms(rules):
    rows = glossary_rows(GLOSSARY.read_text(encoding="utf-8"))
    assert len(rows) > 100, "the glossary's tables were not read: check their header row"
    assert all(row["Russian"] for row in rows), "a term without its Russian form"
    assert len(rules) > 50


def test_no_forbidden_entry_matches_a_prescribed_form(rules):
    """Self-check: a forbidden stem never catches a form the glossary prescribes."""
    rows = glossary_rows(GLOSSARY.read_text(encoding="utf-8"))
    clashes = [
        f"`{rule.entry}` ({rule.term}) matches the Russian of “{row['English']}”: {row['Russian']}"
        for row in rows
        for rule in rules
        if rule.pattern.search(fold(_plain_cell(row["Russian"])))
    ]
    assert not clashes, "\n".join(clashes)


# Pages another branch is rewriting: the lead drops an entry here when that branch lands.
REWRITTEN_ELSEWHERE: dict[str, str] = {}


def _russian_pages() -> list:
    return [
        pytest.param(path, id=path.name)
        if path.name not in REWRITTEN_ELSEWHERE
        else pytest.param(
            path, id=path.name, marks=pytest.mark.xfail(reason=REWRITTEN_ELSEWHERE[path.name])
        )
        for path in sorted(CONTENT.glob("*.ru.md"))
    ]


@pytest.mark.parametrize("path", _russian_pages())
def test_russian_wiki_pages_use_the_glossary(rules, path):
    lines = markdown_lines(path.read_text(encoding="utf-8"))
    findings = scan(str(path.relative_to(ROOT)), lines, rules)
    assert not findings, report(findings)


def test_russian_catalogue_uses_the_glossary(rules):
    findings = scan(str(RU_PO.relative_to(ROOT)), catalogue_lines(RU_PO), rules)
    assert not findings, report(findings)


def test_russian_demo_data_uses_the_glossary(rules):
    findings = []
    for where, number, text in demo_data_lines():
        findings += scan(where, [(number, text)], rules)
    assert not findings, report(findings)


def test_templates_use_the_glossary(rules):
    findings = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        lines = list(enumerate(path.read_text(encoding="utf-8").splitlines(), 1))
        findings += scan(str(path.relative_to(ROOT)), lines, rules, cyrillic_only=True)
    assert not findings, report(findings)


# ---------------------------------------------------------------------------
# The reader itself


def test_entry_syntax():
    stem = entry_pattern("навык*")
    assert stem.search("Навыки карты") and stem.search("навык")
    assert not stem.search("снавыком")  # not inside a word
    phrase = entry_pattern("сила стикеров")
    assert phrase.search("Сила\n стикеров")
    assert not phrase.search("сила стикеровой")
    sensitive = entry_pattern("=герой")
    assert sensitive.search("наш герой") and not sensitive.search("наш Герой")
    literal = entry_pattern("уров* %(tier)s")
    assert literal.search("уровня %(tier)s") and not literal.search("уровня tier")
    arrow = entry_pattern("лап* →")
    assert arrow.search("лапа → голова")
    assert entry_pattern("ступен*").search(fold("ступёнь"))


def test_markdown_reading_drops_code_macros_and_link_targets():
    text = (
        "---\ntitle: Навыки\n---\n"
        "Текст `навык` {{ навык_macro }} [[skills|скилл]] [[навыки]] [x](/ru/навык/)\n"
        "```\nнавык\n```\n**god**-атрибут"
    )
    lines = dict(markdown_lines(text))
    assert "Навыки" in lines[2]
    assert "навык" not in fold(lines[4]).lower()
    assert "скилл" in lines[4]
    assert 6 not in lines
    assert lines[8] == "god-атрибут"


def test_catalogue_reading_drops_code_and_tags(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Skill"\nmsgstr "<code>навык</code> <b>скилл</b>"\n',
        encoding="utf-8",
    )
    ((line, text),) = catalogue_lines(po)
    assert line == 6
    assert "навык" not in text and "скилл" in text


def test_a_finding_says_what_to_write_instead(rules):
    finding = scan("x.po", [(7, "Навыки карты")], rules)[0]
    assert "x.po:7" in str(finding)
    assert "«Навыки»" in str(finding)
    assert "скилл" in str(finding)


def test_scan_names_the_line_of_each_finding_and_never_joins_two_lines(rules):
    lines = [(1, "хорошо"), (2, "открыть пак сейчас"), (7, "ещё пак и паков"), (9, "сила")]
    found = [(f.line, f.found) for f in scan("x", lines, rules)]
    assert found == [(2, "пак"), (7, "пак"), (7, "паков")]
    phrase = Forbidden("x", "y", "сила стикеров", entry_pattern("сила стикеров"))
    assert scan("x", [(1, "сила"), (2, "стикеров")], [phrase]) == []
    assert [f.line for f in scan("x", [(4, "сила\n стикеров")], [phrase])] == [4]
