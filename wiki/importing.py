"""Reading ``wiki/content/<slug>.<lang>.md`` files (front matter + Markdown) into pages.

Front matter sits between two ``---`` lines, one ``key: value`` per line: ``title``,
``summary``, ``section`` (basics|cards|match|collectors|arena), ``order`` and
``related`` (comma-separated slugs). The English file is the reference for section,
order and related pages.

>>> meta, body = parse_file("---\\ntitle: Energy\\norder: 30\\nrelated: a, b\\n---\\nText.\\n")
>>> meta["title"], meta["order"], meta["related"], body
('Energy', '30', 'a, b', 'Text.\\n')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

CONTENT_DIR = Path(__file__).resolve().parent / "content"
_SLUG_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


class ContentError(ValueError):
    """A content file that cannot be loaded; the message names the file."""


@dataclass
class PageSource:
    """One page's content in every language found."""

    slug: str
    section: str = ""
    order: int = 0
    related: list[str] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)
    summaries: dict[str, str] = field(default_factory=dict)
    bodies: dict[str, str] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)


def parse_file(text: str) -> tuple[dict[str, str], str]:
    """Split a content file into its front matter (a dict of strings) and its body."""
    text = text.replace("\r\n", "\n").lstrip("\ufeff")
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        raise ContentError("the file must start with a '---' line")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise ContentError("the front matter has no closing '---' line") from None
    meta: dict[str, str] = {}
    for number, line in enumerate(lines[1:end], start=2):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ContentError(f"line {number}: expected 'key: value'")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        meta[key.strip().lower()] = value
    body = "\n".join(lines[end + 1 :]).lstrip("\n")
    return meta, body


def parse_file_name(name: str) -> tuple[str, str] | None:
    """``"energy.ru.md"`` → ``("energy", "ru")``; None unless it is ``<slug>.<xx>.md`` with a
    lowercase slug of words joined by single hyphens (read without a regular expression).

    >>> parse_file_name("hero-lives.en.md"), parse_file_name("-x.en.md"), parse_file_name("a.EN.md")
    (('hero-lives', 'en'), None, None)
    """
    stem, dot, extension = name.rpartition(".")
    slug, dot2, lang = stem.rpartition(".")
    if not (dot and dot2 and extension == "md" and len(lang) == 2 and lang.isascii()):
        return None
    if not lang.isalpha() or not lang.islower() or not slug or not set(slug) <= _SLUG_CHARS:
        return None
    if slug.startswith("-") or slug.endswith("-") or "--" in slug:
        return None
    return slug, lang


def read_sources(directory: Path = CONTENT_DIR) -> list[PageSource]:
    """Every page found in ``directory``, sorted by slug."""
    languages = {code for code, _name in settings.LANGUAGES}
    default = settings.MODELTRANSLATION_DEFAULT_LANGUAGE
    sources: dict[str, PageSource] = {}
    for path in sorted(directory.glob("*.md")):
        parsed = parse_file_name(path.name)
        if parsed is None or parsed[1] not in languages:
            raise ContentError(f"{path.name}: expected <slug>.<{'|'.join(sorted(languages))}>.md")
        try:
            meta, body = parse_file(path.read_text(encoding="utf-8"))
        except ContentError as exc:
            raise ContentError(f"{path.name}: {exc}") from None
        slug, lang = parsed
        source = sources.setdefault(slug, PageSource(slug))
        source.files.append(path.name)
        if not meta.get("title"):
            raise ContentError(f"{path.name}: the front matter needs a title")
        source.titles[lang] = meta["title"]
        source.summaries[lang] = meta.get("summary", "")
        source.bodies[lang] = body
        if lang == default or not source.section:
            source.section = meta.get("section", source.section)
            try:
                source.order = int(meta.get("order", source.order) or 0)
            except ValueError:
                raise ContentError(f"{path.name}: order must be a whole number") from None
            related = meta.get("related", "")
            source.related = [s.strip() for s in related.split(",") if s.strip()]
    for source in sources.values():
        if default not in source.bodies:
            raise ContentError(f"{source.slug}: there is no {default} file")
    return [sources[slug] for slug in sorted(sources)]
