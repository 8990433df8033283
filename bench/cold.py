"""First views: for each page and API endpoint, an endless supply of different addresses.

``make bench`` repeats one address per endpoint, which measures the page cache. A first
view — a card nobody opened since the last edit, a new what-if, a crawler walking every
card, an API client — pays the whole render. ``cold_endpoints(db)`` gives, for each
endpoint, ``request(i)``: the i-th address of a cycle over every card token, distinct
what-ifs, every wiki page in both languages, distinct card searches and distinct wiki
searches (words of the wiki's own pages), read straight from the SQLite file, so the same
lists serve gunicorn (bench/run_bench.py) and the test client (bench/profile_pages.py).

>>> e = Endpoint("x", 3, lambda i: (f"/x/{i % 3}/", ()))
>>> [e.request(i)[0] for i in range(4)]
['/x/0/', '/x/1/', '/x/2/', '/x/0/']
"""

from __future__ import annotations

import datetime
import random
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode

HTMX = (("HX-Request", "true"),)
Headers = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Endpoint:
    """An endpoint measured cold: ``request(i)`` is its i-th address (and headers)."""

    label: str
    distinct: int  # addresses before the cycle repeats (what-ifs and searches: many)
    request: Callable[[int], tuple[str, Headers]]


WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)


def _rows(db: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    except sqlite3.OperationalError:
        return []  # a table that does not exist (yet)
    finally:
        conn.close()


def card_queries() -> list[str]:
    """Distinct searches of the card list, each finding some cards: a rarity (or none), an
    ATK floor, an HP floor and a sort (6,000 of them)."""
    out = []
    for sort in ("", " sort:-atk", " sort:hp", " sort:-token"):
        for rarity in ("", "r:legendary ", "r:epic ", "r:rare ", "-r:common "):
            for atk in range(5, 17):
                for hp in range(12, 37, 1):
                    out.append(f"{rarity}atk>={atk} hp>={hp}{sort}")
    random.Random(17).shuffle(out)
    return out


def wiki_words(db: Path) -> list[str]:
    """Words of the published wiki pages (both languages), each once, in a fixed shuffle."""
    words: dict[str, None] = {}
    for row in _rows(
        db,
        "SELECT title_en, title_ru, summary_en, summary_ru, body_en, body_ru "
        "FROM wiki_page WHERE published",
    ):
        for text in row:
            for word in WORD.findall(text or ""):
                words.setdefault(word.lower(), None)
    found = list(words)
    random.Random(3).shuffle(found)
    return found


def _as_of(token: int, days_back: int) -> str:
    day = datetime.date.today() - datetime.timedelta(days=1 + days_back % 30)
    return f"/en/cards/{token}/?as={day.isoformat()}"


def cold_endpoints(db: Path) -> list[Endpoint]:
    """Every HTML and API endpoint that a page cache could answer, as cycles of addresses."""
    tokens = [t for (t,) in _rows(db, "SELECT token FROM cards_card ORDER BY token")]
    slugs = [s for (s,) in _rows(db, "SELECT slug FROM wiki_page WHERE published ORDER BY slug")]
    pools = [s for (s,) in _rows(db, "SELECT slug FROM packs_pool ORDER BY slug")]
    slabs = [a for (a,) in _rows(db, "SELECT asset_id FROM arena_slab ORDER BY asset_id")]
    queries = card_queries()
    words = wiki_words(db)
    out = [Endpoint("home (layout)", 1, lambda i: ("/en/", ()))]
    if slugs:
        pages = [(lang, slug) for slug in slugs for lang in ("en", "ru")]
        out.append(
            Endpoint(
                "wiki page",
                len(pages),
                lambda i: ("/{}/wiki/{}/".format(*pages[i % len(pages)]), ()),
            )
        )
    if words:

        def wiki_search(i: int) -> tuple[str, Headers]:
            n = len(words)
            # One word, then pairs: n + n² distinct searches.
            text = words[i % n] if i < n else f"{words[i % n]} {words[(i // n) % n]}"
            lang = "ru" if re.search(r"[\u0400-\u04ff]", text) else "en"
            return f"/{lang}/wiki/search/?{urlencode({'q': text})}", ()

        out.append(Endpoint("wiki search", len(words) * (len(words) + 1), wiki_search))
    out.append(
        Endpoint(
            "card list ?q=",
            len(queries),
            lambda i: (f"/en/cards/?q={quote(queries[i % len(queries)])}", ()),
        )
    )
    if tokens:
        n = len(tokens)
        out.append(Endpoint("card page", n, lambda i: (f"/en/cards/{tokens[i % n]}/", ())))
        # Distinct what-ifs: every card with rank 1, then every card with rank 2, …
        out.append(
            Endpoint(
                "what-if (htmx)",
                n * 999_999,
                lambda i: (f"/en/cards/{tokens[i % n]}/?rank={1 + (i // n) % 999_999}", HTMX),
            )
        )
        out.append(Endpoint("API /api/cards/<t>", n, lambda i: (f"/api/cards/{tokens[i % n]}", ())))
        # A card's history (issue 29), and the card as it was on each of the last 30 days.
        out.append(
            Endpoint("card history", n, lambda i: (f"/en/cards/{tokens[i % n]}/history/", ()))
        )
        out.append(
            Endpoint("card page ?as=", n * 30, lambda i: (_as_of(tokens[i % n], i // n), ()))
        )
    out.append(
        Endpoint(
            "API /api/cards?q=",
            len(queries),
            lambda i: (f"/api/cards?q={quote(queries[i % len(queries)])}", ()),
        )
    )
    if pools:
        out.append(
            Endpoint(
                "booster pool page",
                len(pools),
                lambda i: (f"/en/packs/{pools[i % len(pools)]}/", ()),
            )
        )
    if slabs:
        out.append(
            Endpoint(
                "arena: slab page",
                len(slabs),
                lambda i: (f"/en/arena/slabs/{slabs[i % len(slabs)]}/", ()),
            )
        )
    return out


def endpoints_in_process(client) -> list[Endpoint]:
    """The same endpoints for the test client, from the configured SQLite database."""
    from django.conf import settings

    return cold_endpoints(Path(settings.DATABASES["default"]["NAME"]))
