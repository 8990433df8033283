#!/usr/bin/env python
"""The collection at scale: generate, store, recompute, export, import and list (prints
figures; never asserts).

Runs against a fresh SQLite database in a temporary directory (the project's own
database is never touched), with the dev settings otherwise. Usage:

    .venv/bin/python bench/bench_collection.py [--size 100000] [--seed 2026] [--keep DIR]

Each step prints wall-clock seconds and this process's CPU seconds (on a busy
machine the second is the steadier figure; SQLite's own work counts as CPU too).
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", help="use this directory for the database and keep it")
    args = parser.parse_args()

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
