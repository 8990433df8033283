#!/usr/bin/env python
"""The collection at scale: generate, store, recompute, export, import and list (prints
figures; never asserts).

Runs against a fresh SQLite database in a temporary directory (the project's own
database is never touched), with the dev settings otherwise. Usage:

    .venv/bin/python bench/bench_collection.py [--size 100000] [--seed 2026] [--keep DIR]

Each step prints wall-clock seconds and this process's CPU seconds (on a busy
machine the second is the steadier figure; SQLite's own work counts as CPU too).

The explorer's figures (the search language, a random card, the bulk file) on an
existing database, copied first — what ``make bench`` prints at 1,000 and 100,000 cards
through ``explorer_section``:

    .venv/bin/python bench/bench_collection.py --explorer db.sqlite3
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@contextmanager
def step(label: str):
    wall, cpu = time.perf_counter(), time.process_time()
    yield
    print(
        f"{label:<46} {time.perf_counter() - wall:8.2f} s wall {time.process_time() - cpu:8.2f} s CPU",
        flush=True,
    )


# --- the explorer: search, random card, bulk file ---------------------------------------

# (label, query): the card list's searches, from the plain to the adversarial.
EXPLORER_QUERIES = (
    ("empty (the whole catalogue)", ""),
    ("r:legendary", "r:legendary"),
    ("r:legendary or r:epic", "r:legendary or r:epic"),
    ("-r:common -is:combo", "-r:common -is:combo"),
    ("(s:arcane or s:steal) nrg<=3 sort:-atk", "(s:arcane or s:steal) nrg<=3 sort:-atk"),
    ("is:god or is:premium or is:combo", "is:god or is:premium or is:combo"),
    ("a word: Mitten", "Mitten"),
    ('a phrase: "qx mitten"', '"qx mitten"'),
    ("8 common word prefixes", "co ma ta ro pu fl go mi"),
    ("8 prefixes joined by or", "co or ma or ta or ro or pu or fl or go or mi"),
    ("8 prefixes each left out", "-co -ma -ta -ro -pu -fl -go -mi"),
    ("24 filters", " ".join(["-r:common", "hp>=1", "atk>=1", "def>=0"] * 6)),
)
EXPLORER_TIMEOUT = 240.0  # seconds for one database (the bulk file of 100,000 cards included)


def _best(fn, rounds: int = 3) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def explorer_figures() -> list[str]:
    """Lines of figures for the configured database (Django is set up)."""
    from django.db.models import Q
    from django.test import Client
    from django.test.utils import override_settings

    from cards.models import Card
    from cards.query import QueryError, parse
    from cards.search import random_card_token, search_cards
    from explorer import bulk
    from explorer.presenters import card_rows

    lines = [f"{Card.objects.count():,} cards"]

    def list_page(text: str) -> int:
        found = search_cards(text)
        count = found.count()
        card_rows(found, 24)
        return count

    for label, text in EXPLORER_QUERIES:
        seconds, count = _best(lambda text=text: list_page(text))
        lines.append(f"search {label}: {seconds * 1000:.1f} ms ({count:,} cards; count + page)")
    # As in the report of issue 12: 250 one-letter words (a, b, c … cycling).
    words = " ".join(chr(ord("a") + i % 26) for i in range(250))
    start = time.perf_counter()
    try:
        parse(words)
        refused = "not refused"
    except QueryError as error:
        refused = f"refused ({error.code})"
    lines.append(
        f"250 one-letter words: {refused} in {(time.perf_counter() - start) * 1000:.2f} ms; "
        "the old reading (one name LIKE per word, every card): a to z cycling "
        + _old_words(Card, Q, words.split())
        + ", 250 times 'a' "
        + _old_words(Card, Q, ["a"] * 250)
    )
    with override_settings(PAGE_CACHE_SECONDS=0):
        client = Client(HTTP_HOST="127.0.0.1")
        for label, path in (
            ("card list page, boolean query", "/en/cards/?q=r%3Alegendary+or+r%3Aepic+-is%3Acombo"),
            ("card list page, checklist of 60", "/en/cards/?q=-r%3Acommon&display=checklist"),
            ("header search page (cards and wiki)", "/en/search/?q=r%3Alegendary+or+Mitten"),
            ("statistics page (every bar one search)", "/en/cards/stats/"),
        ):
            seconds, status = _best(lambda path=path: client.get(path).status_code)
            lines.append(f"{label}: {seconds * 1000:.1f} ms (status {status}, whole page)")
        seconds, _ = _best(lambda: client.get("/en/cards/random/").status_code, rounds=20)
        lines.append(f"random card (redirect): {seconds * 1000:.2f} ms")
    seconds, _ = _best(lambda: random_card_token(parse("r:legendary")), rounds=20)
    lines.append(f"random card among r:legendary: {seconds * 1000:.2f} ms")
    with (
        tempfile.TemporaryDirectory(prefix="bench-bulk-") as folder,
        override_settings(BULK_DATA_DIR=folder),
    ):
        wall, cpu = time.perf_counter(), time.process_time()
        made = bulk.current_file()
        lines.append(
            f"bulk file written: {time.perf_counter() - wall:.2f} s wall, "
            f"{time.process_time() - cpu:.2f} s CPU, {made.size / 1e6:.1f} MB"
        )
        seconds, _ = _best(bulk.current_file)
        lines.append(f"bulk file already made (each later request): {seconds * 1000:.2f} ms")
        client = Client(HTTP_HOST="127.0.0.1")
        start = time.perf_counter()
        response = client.get("/api/bulk/cards.json")
        streamed = sum(len(chunk) for chunk in response.streaming_content)
        lines.append(
            f"bulk file streamed through the view: {time.perf_counter() - start:.2f} s, "
            f"{streamed / 1e6:.1f} MB; If-None-Match answer: "
            + "%.2f ms"
            % (
                _best(
                    lambda: (
                        client.get(
                            "/api/bulk/cards.json", headers={"If-None-Match": response["ETag"]}
                        ).status_code
                    )
                )[0]
                * 1000
            )
        )
    return lines


def _old_words(card_model, q, words: list[str]) -> str:
    """The free-word search as it was before the word index: every word a LIKE on every
    card's name (measured once: it is the slow case)."""
    queryset = card_model.objects.collectible()
    for word in words:
        queryset = queryset.filter(q(name__icontains=word))
    start = time.perf_counter()
    queryset.count()
    list(queryset.order_by("-rarity_rank", "token").values_list("pk", flat=True)[:24])
    return f"{time.perf_counter() - start:.2f} s"


def explorer_section(databases: list[tuple[str, Path | None]]) -> list[str]:
    """``make bench``'s explorer figures: for each (label, database), a copy is migrated
    and measured in a fresh process. Returns the lines to print."""
    import subprocess

    from bench.harness import PYTHON, copy_sqlite, django_env, manage

    out: list[str] = []
    for label, source in databases:
        if source is None or not Path(source).exists():
            out.append(f"{label}: n/a (no database)")
            continue
        with tempfile.TemporaryDirectory(prefix="bench-explorer-") as folder:
            db = Path(folder) / "explorer.sqlite3"
            copy_sqlite(Path(source), db)
            env = django_env(db)
            manage(["migrate", "--noinput", "--verbosity", "0"], env, timeout=300)
            try:
                result = subprocess.run(
                    [PYTHON, str(Path(__file__).resolve()), "--explorer", str(db), "--in-place"],
                    cwd=ROOT,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=EXPLORER_TIMEOUT,
                )
            except subprocess.TimeoutExpired:
                out.append(f"{label}: n/a (took over {EXPLORER_TIMEOUT:.0f} s)")
                continue
            if result.returncode != 0:
                tail = (result.stderr or result.stdout).strip().splitlines()[-1:]
                out.append(f"{label}: n/a (exit {result.returncode}: {tail})")
                continue
            out.extend(f"{label}: {line}" for line in result.stdout.strip().splitlines())
    return out


def explorer_main(database: Path, in_place: bool) -> int:
    if not in_place:
        for line in explorer_section([(database.name, database)]):
            print(line, flush=True)
        return 0
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.bench")
    os.environ["BENCH_SQLITE_PATH"] = str(database)
    import django

    django.setup()
    for line in explorer_figures():
        print(line, flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", help="use this directory for the database and keep it")
    parser.add_argument(
        "--explorer", type=Path, help="measure the explorer on (a copy of) this database"
    )
    parser.add_argument("--in-place", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.explorer:
        return explorer_main(args.explorer, args.in_place)

    workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-collection-"))
    workdir.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    from django.conf import settings

    settings.DATABASES["default"]["NAME"] = workdir / "bench.sqlite3"
    settings.DEBUG = False
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cards.generator import generate
    from cards.models import Card
    from cards.selectors import collection_stats
    from cards.services import clear_collection, recompute_cards, store_collection
    from cards.specs import card_spec
    from cards.transfer import export_collection, import_collection

    print(f"collection of {args.size:,} cards, seed {args.seed}, database in {workdir}")
    call_command("migrate", verbosity=0)
    clear_collection()
    with step("generate (build and derive, pure Python)"):
        collection = generate(args.seed, args.size)
    print(f"  {collection.report}")
    with step("store (bulk inserts, one transaction)"):
        counts = store_collection(
            collection.attributes,
            collection.cards,
            [(c.spec, {"en": c.spec.name, "ru": c.name_ru}) for c in collection.combos],
            collection.derived,
        )
    print(f"  {counts}")
    with step("recompute, nothing changed"):
        result = recompute_cards()
    print(f"  {result}")
    Card.objects.update(atk=0)
    with step("recompute, every card changed"):
        result = recompute_cards()
    print(f"  {result}")
    path = workdir / "collection.json"
    with step("export_collection"), open(path, "w", encoding="utf-8") as out:
        export_collection(out)
    print(f"  {path.stat().st_size / 1e6:.1f} MB")
    data = path.read_bytes()
    with step("import_collection, same file (nothing to write)"):
        result = import_collection(data)
    print(f"  cards {result.cards}")

    lists = {
        "legendary, by token, first page": Card.objects.filter(rarity="legendary").order_by(
            "token"
        ),
        "legendary, by token, page 100": Card.objects.filter(rarity_rank=4).order_by("token")[
            5000:5050
        ],
        "tank + arcane affinity, by token": Card.objects.filter(
            role="tank", skill_affinity="arcane"
        ).order_by("token"),
        "no active skill, by token": Card.objects.filter(active_skill__isnull=True).order_by(
            "token"
        ),
        "all, by rarity then token (desc)": Card.objects.order_by("-rarity_rank", "-token"),
        "score ≥ 1500, by score desc": Card.objects.filter(wardrobe_score__gte=1500).order_by(
            "-wardrobe_score", "token"
        ),
        "energy 3, by ATK desc": Card.objects.filter(energy_cost=3).order_by("-atk", "token"),
        "count of epic cards": None,
    }
    for label, queryset in lists.items():
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            if queryset is None:
                Card.objects.filter(rarity="epic").count()
            else:
                # .all(): a fresh clone each round (a queryset caches its rows).
                list(queryset.all() if queryset.query.is_sliced else queryset[:50])
            best = min(best, time.perf_counter() - start)
        plan = ""
        if queryset is not None:
            qs = queryset[:50] if not queryset.query.is_sliced else queryset
            plan = qs.explain().splitlines()[-1].strip()
        print(f"list: {label:<40} {best * 1000:7.1f} ms   {plan}")
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        collection_stats()
        best = min(best, time.perf_counter() - start)
    print(f"collection_stats() over every card              {best * 1000:7.1f} ms")
    token = Card.objects.order_by("-token").values_list("token", flat=True).first()
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        card_spec(token)
    print(
        f"card_spec(one card): {len(queries.captured_queries)} queries, "
        f"{(time.perf_counter() - start) * 1000:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
