#!/usr/bin/env python
"""How long a large import holds the database's write lock (prints figures; never asserts).

Generates a collection (100,000 cards by default; its export is cached in bench/results/),
then imports it with `cards.transfer.import_collection` into a fresh SQLite database while
a second connection asks for the write lock (BEGIN IMMEDIATE … COMMIT) every 50 ms, the way
a concurrent writer would: its longest wait is how long the import kept every other writer
out. Three imports: into an empty database, the same file again (nothing to write), and
the file with every card changed.

    .venv/bin/python bench/bench_import.py [--size 100000] [--seed 2026]

Runs in a temporary directory with the dev settings otherwise; the project's own database
is never touched.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "bench" / "results"
BUSY_TIMEOUT = 20.0  # the site's SQLite busy timeout (config/settings/base.py SQLITE_OPTIONS)


class WriterProbe(threading.Thread):
    """A concurrent writer: takes and releases the write lock every 50 ms, noting each wait."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.waits: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        conn = sqlite3.connect(self.path, timeout=600, isolation_level=None)
        try:
            while not self.stop.is_set():
                started = time.perf_counter()
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("COMMIT")
                self.waits.append(time.perf_counter() - started)
                self.stop.wait(0.05)
        finally:
            conn.close()

    def report(self) -> str:
        longest = max(self.waits, default=0.0)
        over = sum(1 for w in self.waits if w > BUSY_TIMEOUT)
        return (
            f"a concurrent writer waited at most {longest:6.2f} s "
            f"({len(self.waits)} writes; {over} over the {BUSY_TIMEOUT:.0f} s timeout)"
        )


def export_file(size: int, seed: int, workdir: Path) -> Path:
    """The collection's export, generated once per size and seed (cached in bench/results/)."""
    RESULTS.mkdir(exist_ok=True)
    cached = RESULTS / f"import-{size}-{seed}.json"
    if cached.exists():
        return cached
    from cards.generator import generate
    from cards.services import store_collection
    from cards.transfer import export_collection

    print(f"(one-off: generating {size:,} cards for the export, cached as {cached.name})")
    collection = generate(seed, size)
    store_collection(
        collection.attributes,
        collection.cards,
        [(c.spec, {"en": c.spec.name, "ru": c.name_ru}) for c in collection.combos],
        collection.derived,
    )
    building = cached.with_suffix(".building")
    with open(building, "w", encoding="utf-8") as out:
        export_collection(out)
    building.rename(cached)
    return cached


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="bench-import-"))
    db = workdir / "import.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    from django.conf import settings

    settings.DATABASES["default"]["NAME"] = db
    settings.DEBUG = False
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from cards.models import Card
    from cards.services import clear_collection
    from cards.transfer import import_collection

    try:
        call_command("migrate", verbosity=0)
        source = export_file(args.size, args.seed, workdir)
        clear_collection()
        data = source.read_bytes()
        changed = json.loads(data)
        for card in changed["cards"]:
            card["burned_stickers"] += 1
        changed_data = json.dumps(changed, ensure_ascii=False).encode()
        print(
            f"{args.size:,} cards, export {len(data) / 1e6:.0f} MB; SQLite {sqlite3.sqlite_version}"
        )
        for label, payload in (
            ("into an empty database", data),
            ("the same file again", data),
            ("every card changed", changed_data),
        ):
            probe = WriterProbe(db)
            probe.start()
            started = time.perf_counter()
            result = import_collection(payload)
            wall = time.perf_counter() - started
            probe.stop.set()
            probe.join()
            write = getattr(result, "write_seconds", None)
            written = "n/a" if write is None else f"{write:6.2f} s"
            print(
                f"import, {label:<24} {wall:7.2f} s in all, write transaction {written}; "
                f"{probe.report()}"
            )
            print(f"  cards {result.cards}, {result.recomputed} re-derived")
        print(f"(cards in the database: {Card.objects.count():,})")
    finally:
        connection.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
