#!/usr/bin/env python
"""First views in-process: what a page costs when the page cache cannot answer it
(prints figures; never asserts).

Runs Django's test client against a copy of a database (the demo one by default) with the
bench settings, each request a different address — every card in turn, distinct what-ifs,
every wiki page, distinct searches —, so no page-cache entry is ever reused. Prints the
median CPU milliseconds per request of each endpoint (and as a multiple of /healthz's),
with the wall-clock median and p90, the Python function calls per first view (counted
by cProfile over other addresses, apart from the timed requests, so the profiler does not
slow the timing) and, for the pages that have one, the budget as a multiple of /healthz's
and whether it is met (issue 27: ``BUDGETS``); ``--profile LABEL`` prints the cProfile
of that endpoint's requests instead (sorted by cumulative or own time).

    .venv/bin/python bench/profile_pages.py [--database db.sqlite3] [--requests 200]
    .venv/bin/python bench/profile_pages.py --profile "card page" [--sort tottime] [--lines 40]
    .venv/bin/python bench/profile_pages.py --profile "card page" --by-package
    .venv/bin/python bench/profile_pages.py --profile "card page" --callers "enum.py:.*__new__"
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: In-process CPU of a first view as a multiple of /healthz's in the same run (issue 27).
BUDGETS = {
    "card page": 40,
    "card history": 40,  # issue 29: within the card page's own budget
    "card page ?as=": 40,
    "what-if (htmx)": 30,
    "card list ?q=": 25,
    "wiki search": 30,
    "booster pool page": 30,
    "arena: slab page": 25,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", type=Path, default=ROOT / "db.sqlite3")
    parser.add_argument("--requests", type=int, default=200, help="requests per endpoint")
    parser.add_argument("--profile", help="cProfile this endpoint (its label)")
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument(
        "--by-package",
        action="store_true",
        help="with --profile: the share of own time per package (django/template, explorer…)",
    )
    parser.add_argument("--lines", type=int, default=45)
    parser.add_argument(
        "--callers", help="with --profile: who calls the functions matching this pattern"
    )
    parser.add_argument("--only", help="measure only the endpoints whose label has this text")
    parser.add_argument("--in-place", action="store_true", help="use the database itself")
    parser.add_argument(
        "--calls",
        type=int,
        default=20,
        help="first views (other addresses) over which to count Python function calls per "
        "request with cProfile, apart from the timed ones; 0: do not count. Unlike times, "
        "the count does not move with the machine's load",
    )
    args = parser.parse_args(argv)

    from bench.harness import django_on_a_copy

    with django_on_a_copy(args.database, "codex-profile-", in_place=args.in_place):
        from django.conf import settings
        from django.test import Client

        from bench.cold import Endpoint, endpoints_in_process

        # The page cache off, as on the bench's cold server: every request renders.
        settings.PAGE_CACHE_SECONDS = 0
        client = Client(HTTP_HOST="127.0.0.1")
        chosen: list[Endpoint] = endpoints_in_process(client)
        if args.only:
            chosen = [e for e in chosen if args.only in e.label]
        if args.profile:
            chosen = [e for e in chosen if e.label == args.profile]
            if not chosen:
                print(f"no endpoint {args.profile!r}", file=sys.stderr)
                return 2
        against_healthz = not args.profile and not args.only
        if against_healthz:
            chosen.insert(0, Endpoint("/healthz", 1, lambda i: ("/healthz", ())))
        floor = None
        for endpoint in chosen:
            # Warm the code, then count calls, on addresses after the timed ones.
            run(client, endpoint, min(10, args.requests), None, offset=args.requests)
            calls = ""
            if args.calls and not args.profile:
                counter = cProfile.Profile()
                run(client, endpoint, args.calls, counter, offset=args.requests + 10)
                total = pstats.Stats(counter).total_calls  # type: ignore[attr-defined]
                calls = f"{total / args.calls:8,.0f} calls"
            profiler = cProfile.Profile() if args.profile else None
            times, cpu = run(client, endpoint, args.requests, profiler)
            median_cpu = statistics.median(cpu)
            floor = floor or median_cpu
            ratio = median_cpu / floor
            budget = BUDGETS.get(endpoint.label)
            verdict = ""
            if budget and against_healthz:
                verdict = f"budget ≤ {budget}× {'met' if ratio <= budget else 'NOT MET'}"
            print(
                f"{endpoint.label:<20} CPU {median_cpu * 1e3:6.2f} ms {ratio:5.1f}× /healthz "
                f"{verdict:<20} {calls:>14}   wall median "
                f"{statistics.median(times) * 1e3:6.2f} ms, p90 "
                f"{sorted(times)[int(len(times) * 0.9)] * 1e3:6.2f} ms "
                f"({len(times)} requests, {min(len(times), endpoint.distinct):,} addresses)",
                flush=True,
            )
            if profiler is not None and args.by_package:
                print_by_package(pstats.Stats(profiler), args.lines, len(times))
            elif profiler is not None and args.callers:
                pstats.Stats(profiler).sort_stats(args.sort).print_callers(args.callers)
            elif profiler is not None:
                pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.lines)
    return 0


def print_by_package(stats: pstats.Stats, lines: int, requests: int) -> None:
    """Own time and calls per package (the first two parts of a module's path)."""
    own: dict[str, float] = {}
    calls: dict[str, int] = {}
    for (filename, _line, _name), (_cc, count, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        if filename == "~":
            package = "(built-in functions)"
        elif "site-packages/" in filename or filename.startswith(str(ROOT)):
            path = filename.split("site-packages/")[-1].removeprefix(str(ROOT) + "/")
            package = "/".join(Path(path).parts[:2])
        else:  # the standard library
            package = f"(stdlib) {Path(filename).stem}"
        own[package] = own.get(package, 0.0) + tottime
        calls[package] = calls.get(package, 0) + count
    total = sum(own.values()) or 1.0
    print(f"{'share':>6} {'calls/request':>14}  package")
    for package in sorted(own, key=own.get, reverse=True)[:lines]:
        print(f"{own[package] / total:6.1%} {calls[package] / requests:14,.0f}  {package}")


def run(client, endpoint, count: int, profiler, offset: int = 0) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each request (CPU time is this process's: it stays honest
    when other work shares the machine)."""
    times, cpu = [], []
    for i in range(count):
        path, headers = endpoint.request(offset + i)
        if profiler is not None:
            profiler.enable()
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(path, headers=dict(headers))
        elapsed, elapsed_cpu = time.perf_counter() - started, time.process_time() - started_cpu
        if profiler is not None:
            profiler.disable()
        if response.status_code != 200:
            raise SystemExit(f"{endpoint.label}: {path} answered {response.status_code}")
        times.append(elapsed)
        cpu.append(elapsed_cpu)
    return times, cpu


if __name__ == "__main__":
    raise SystemExit(main())
