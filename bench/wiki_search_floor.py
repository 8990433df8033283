#!/usr/bin/env python
"""How fast the wiki search's first view could be with no highlighting at all: /healthz,
the search, and the same search with the database's highlighting replaced by the start of
each text, alternated in one process (prints figures; never asserts).

The floor under the wiki search's goal (docs/PERFORMANCE.md, "Seventh round"): whatever
the highlighting costs, the rest of the request is its ratio's ceiling. Django's test
client against a copy of the demo database, the page cache off, every request a new search
(``bench/cold.py``'s words); CPU medians of this process.

    .venv/bin/python bench/wiki_search_floor.py [--requests 300] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", type=Path, default=ROOT / "db.sqlite3")
    parser.add_argument("--requests", type=int, default=300, help="requests per measurement")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)

    from bench.harness import django_on_a_copy

    with django_on_a_copy(args.database, "codex-wiki-floor-"):
        from django.conf import settings
        from django.test import Client
        from django.utils.html import escape
        from django.utils.safestring import mark_safe

        import wiki.search.highlights
        from bench.cold import endpoints_in_process

        settings.PAGE_CACHE_SECONDS = 0
        client = Client(HTTP_HOST="127.0.0.1")
        search = next(e for e in endpoints_in_process(client) if e.label == "wiki search")
        highlighted = wiki.search.highlights._sqlite_highlight

        def unhighlighted(_parsed, asks):
            return [mark_safe(escape(ask.parts[0][2][:200])) for ask in asks]

        def cpu_median(request, start: int) -> float:
            spent = []
            for i in range(start, start + args.requests):
                path, headers = request(i)
                began = time.process_time()
                response = client.get(path, headers=dict(headers))
                spent.append(time.process_time() - began)
                if response.status_code != 200:
                    raise SystemExit(f"{path} answered {response.status_code}")
            return statistics.median(spent)

        cpu_median(search.request, 90_000)  # warm the code and the kept texts
        for number in range(args.rounds):
            start = number * args.requests
            healthz = cpu_median(lambda _i: ("/healthz", ()), 0)
            with_marks = cpu_median(search.request, start)
            wiki.search.highlights._sqlite_highlight = unhighlighted
            try:
                without = cpu_median(search.request, start)
            finally:
                wiki.search.highlights._sqlite_highlight = highlighted
            print(
                f"round {number + 1}: /healthz {healthz * 1e3:.2f} ms; wiki search "
                f"{with_marks * 1e3:.2f} ms ({healthz / with_marks:.3f} × /healthz); without "
                f"the database's highlighting {without * 1e3:.2f} ms "
                f"({healthz / without:.3f} × /healthz)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
