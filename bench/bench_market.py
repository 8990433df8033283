#!/usr/bin/env python
"""Recording a day's market import at scale (issue 29): prints figures, never asserts.

One day of market data whose supply changes touch ``--share`` (10 % by default) of the
cards, plus rank changes for 1 % of them, imported with ``cards.market.import_market``:
every row checked, the records written, the touched cards derived before and after, the
changes stored with their causes. The goal is ≤ 30 s for 10 % of 100,000 cards.

Runs on a copy of ``--database`` (``make bench`` passes its cached 100,000-card
database), or on a collection of ``--size`` cards generated in a temporary directory:

    .venv/bin/python bench/bench_market.py [--database bench/results/scale-100000.sqlite3]
                                          [--size 100000] [--share 0.1]
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL_SECONDS = 30.0


def day_of_rows(share: float, seed: int) -> tuple[list[dict], int]:
    """A day's rows: supply +1 for attributes until ``share`` of the cards own one of
    them, and a new rank for 1 % of the cards. Returns (rows, cards touched)."""
    from django.db.models import Count

    from cards.history import today
    from cards.models import Attribute, Card
    from cards.services import cards_affected_by_attributes

    rng = random.Random(seed)
    total = Card.objects.count()
    owners = dict(
        Card.wardrobe.through.objects.values("attribute_id")
        .annotate(n=Count("card_id"))
        .values_list("attribute_id", "n")
    )
    attributes = list(Attribute.objects.values_list("id", "slot", "name", "supply"))
    rng.shuffle(attributes)
    chosen: list[tuple] = []
    reached = 0
    for attribute in attributes:
        if reached >= share * total:
            break
        if owners.get(attribute[0], 0) > share * total / 4:  # no one attribute does it all
            continue
        chosen.append(attribute)
        reached += owners.get(attribute[0], 0)
    touched = cards_affected_by_attributes(a[0] for a in chosen)
    day = (today() - datetime.timedelta(days=1)).isoformat()
    rows = [
        {"date": day, "slot": slot, "attribute": name, "supply": supply + 1}
        for _pk, slot, name, supply in chosen
    ]
    tokens = list(Card.objects.filter(starter=False).values_list("token", flat=True))
    for token in rng.sample(tokens, max(1, len(tokens) // 100)):
        rows.append({"date": day, "card": token, "getgems_rank": rng.randint(1, 400)})
    return rows, len(touched)


def measure(share: float, seed: int) -> None:
    from cards.market import import_market
    from cards.models import Card, CardChange

    rows, touched = day_of_rows(share, seed)
    total = Card.objects.count()
    wall, cpu = time.perf_counter(), time.process_time()
    result = import_market(json.dumps(rows))
    seconds, cpu_seconds = time.perf_counter() - wall, time.process_time() - cpu
    verdict = "met" if seconds <= GOAL_SECONDS else "NOT met"
    print(
        f"market day: {len(rows):,} rows, {result.cards_derived:,} of {total:,} cards derived "
        f"again ({touched / max(total, 1):.0%} by supply), {result.changes:,} changes recorded "
        f"({CardChange.objects.filter(tier_change=True).count():,} of rarity) in "
        f"{seconds:.1f} s wall, {cpu_seconds:.1f} s CPU — goal ≤ {GOAL_SECONDS:.0f} s: {verdict}",
        flush=True,
    )
    from cards.history import today
    from cards.search import search_cards

    before = (today() - datetime.timedelta(days=2)).isoformat()
    for text in ("r:legendary", f"r:legendary as:{before}"):
        wall = time.perf_counter()
        count = search_cards(text).count()
        print(f"search {text!r}: {count:,} cards in {time.perf_counter() - wall:.2f} s", flush=True)
    wall = time.perf_counter()
    again = import_market(json.dumps(rows))
    print(
        f"the same file again: {again.changes} changes in {time.perf_counter() - wall:.1f} s "
        f"(checked, nothing written)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", type=Path, default=None)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--share", type=float, default=0.10)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument(
        "--keep", type=Path, default=None, help="keep the generated database at this path"
    )
    args = parser.parse_args(argv)

    from bench.harness import copy_sqlite, django_on_a_copy

    if args.database is not None and args.database.exists():
        with django_on_a_copy(args.database, "codex-market-"):
            measure(args.share, args.seed)
        return 0
    with tempfile.TemporaryDirectory(prefix="codex-market-new-") as folder:
        db = Path(folder) / "market.sqlite3"
        with django_on_a_copy(db, "codex-market-", in_place=True):
            from django.core.management import call_command

            started = time.perf_counter()
            call_command("generate_collection", size=args.size, verbosity=0)
            print(f"({args.size:,} cards generated in {time.perf_counter() - started:.0f} s)")
            if args.keep is not None:
                copy_sqlite(db, args.keep)
            measure(args.share, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
