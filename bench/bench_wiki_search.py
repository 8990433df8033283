#!/usr/bin/env python
"""Wiki search at 15 and at 1,000 pages: a results page's cost, highlighted by the database
(FTS5's highlight(), wiki.search.highlight_results) against the former snippets built in
Python (wiki.search.snippet/highlight, which stem every word of every result), side by
side in one process (prints figures; never asserts).

Runs on a copy of the demo database (its 15 shipped pages), then adds generated pages —
paragraphs of the shipped ones shuffled, in both languages — up to ``--pages``, indexed
the way saving a page indexes it, and measures again. CPU time of this process, median of
each query over ``--rounds`` rounds.

    .venv/bin/python bench/bench_wiki_search.py [--pages 1000] [--rounds 5]

``--questions`` prints instead the share of the questions players type
(tests/wiki/search_questions.json, EN and RU) that find their page in the top 3 of the
wiki search: what ``make bench`` shows (``questions_section``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUERIES = ("rarity", "skill", "energy deploy", "навыки", "редкость карты", "legendary combo")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", type=Path, default=ROOT / "db.sqlite3")
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--questions", action="store_true", help="the question set's share")
    args = parser.parse_args(argv)

    from bench.harness import django_on_a_copy

    with django_on_a_copy(args.database, "codex-wiki-search-"):
        if args.questions:
            for line in question_share():
                print(line)
            return 0
        from django.utils import translation

        translation.activate("en")
        from wiki.models import Page

        count = Page.objects.filter(published=True).count()
        report(count, args.rounds)
        grow(args.pages - count)
        report(Page.objects.filter(published=True).count(), args.rounds)
    return 0


QUESTIONS = ROOT / "tests" / "wiki" / "search_questions.json"


def question_share() -> list[str]:
    """The share of the question set whose page is in the wiki search's top 3, per
    language and in all, and the questions that missed."""
    import json

    from wiki import presenters

    questions = json.loads(QUESTIONS.read_text())["questions"]
    found: dict[str, list[bool]] = {"en": [], "ru": []}
    missed = []
    for lang, question, pages in questions:
        view = presenters.search_results(question, lang)
        top = [r.link.page.slug for r in view.results][:3]
        found[lang].append(bool(set(top) & set(pages)))
        if not found[lang][-1]:
            missed.append(f"{question!r} → {', '.join(top) or 'nothing'}")
    every = found["en"] + found["ru"]
    lines = [
        f"questions finding their page in the top 3: {sum(every)}/{len(every)} = "
        f"{sum(every) / len(every):.0%} (goal ≥ 90%; EN {sum(found['en'])}/{len(found['en'])}, "
        f"RU {sum(found['ru'])}/{len(found['ru'])})"
    ]
    lines += [f"missed: {m}" for m in missed]
    return lines


def questions_section(database: Path) -> list[str]:
    """``make bench``'s lines: the question set measured in a fresh process on a copy of
    ``database``."""
    import subprocess

    from bench.harness import PYTHON, django_env

    result = subprocess.run(
        [PYTHON, str(Path(__file__).resolve()), "--questions", "--database", str(database)],
        cwd=ROOT,
        env=django_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        return [f"n/a: {(result.stderr or result.stdout).strip().splitlines()[-1:]}"]
    return result.stdout.strip().splitlines()


def grow(extra: int) -> None:
    """``extra`` more published pages made of the shipped pages' paragraphs, indexed."""
    from django.core.cache import cache

    from wiki import search
    from wiki.models import Page

    if extra <= 0:
        return
    shipped = list(Page.objects.filter(published=True))
    paragraphs = {
        lang: [p for page in shipped for p in (getattr(page, f"body_{lang}") or "").split("\n\n")]
        for lang in ("en", "ru")
    }
    rng = random.Random(17)
    started = time.monotonic()
    pages = []
    for n in range(extra):
        source = rng.choice(shipped)
        fields = {}
        for lang in ("en", "ru"):
            fields[f"title_{lang}"] = f"{getattr(source, f'title_{lang}') or source.title} {n}"
            fields[f"summary_{lang}"] = getattr(source, f"summary_{lang}") or ""
            fields[f"body_{lang}"] = "\n\n".join(rng.sample(paragraphs[lang], 12))
        pages.append(Page(slug=f"generated-{n}", section=source.section, **fields))
    Page.objects.bulk_create(pages, batch_size=200)
    for page in Page.objects.filter(slug__startswith="generated-"):
        search.index_page(page)
    cache.clear()  # the vocabulary and the page directory change with the pages
    print(f"(generated and indexed {extra:,} pages in {time.monotonic() - started:.0f} s)")


def report(pages: int, rounds: int) -> None:
    from wiki import presenters, search
    from wiki.search import snippets

    def database(query: str) -> None:
        presenters.search_results(query, "en")

    def python(query: str) -> None:
        """The former results page: the same search, snippets and titles in Python."""
        view = presenters.search_results(query, "en")  # the same queries and pages
        parsed = search.parse_query(query, search.vocabulary())
        terms = parsed.highlight
        for result in view.results:
            page = result.link.page
            text = (page.summary or "") + "\n" + search.page_plain_text(page, "en")
            search.highlight(result.link.title.value, terms)
            search.snippet(text, terms)

    database("warm")
    python("warm")
    print(f"## {pages:,} published pages")
    for query in QUERIES:
        found = presenters.search_results(query, "en").total
        db_ms = _median(lambda q=query: database(q), rounds)
        # The Python figure includes the database path's work once more: subtract it.
        py_ms = _median(lambda q=query: python(q), rounds) - db_ms
        snippets._matches_cached.cache_clear()  # its memo made repeated rounds free
        cold_py = _median(lambda q=query: python(q), 1, clear=True) - db_ms
        print(
            f"- {query!r}: {found} results; results page with database highlights "
            f"{db_ms:.2f} ms; former Python highlights alone +{max(py_ms, 0):.2f} ms "
            f"(first time, memo empty: +{max(cold_py, 0):.2f} ms)"
        )


def _median(work, rounds: int, clear: bool = False) -> float:
    from wiki.search import snippets

    times = []
    for _ in range(rounds):
        if clear:
            snippets._matches_cached.cache_clear()
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return statistics.median(times) * 1e3


if __name__ == "__main__":
    raise SystemExit(main())
