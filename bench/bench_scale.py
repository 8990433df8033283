#!/usr/bin/env python
"""`make bench-scale`: the site at 1,000 / 100,000 / 1,000,000 cards on PostgreSQL 15
(prints figures; never asserts).

Starts a throwaway PostgreSQL 15 cluster the way scripts/ci-postgres.sh does (initdb into
a fresh directory under /tmp, as an unprivileged user when run as root, a unix socket only,
durability off; stopped and deleted on exit), then for each size, in a fresh database and a
child process: migrates, loads the wiki, generates the collection (cards.generator: build
and derive) and stores it (``COPY``: cards.services.store_collection), ANALYZEs, and times each page's and API call's
first view in-process (Django's test client, the page cache off, a different address per
request): p50 and p99 wall milliseconds. Then prints one table with a column per size.

    .venv/bin/python bench/bench_scale.py [--sizes 1000,100000,1000000] [--requests 100]
        [--write-docs]   # replace the table in the performance notes (docs/)
        [--keep]         # leave the cluster running afterwards (prints how to reach it)
    .venv/bin/python bench/bench_scale.py --pages-on DATABASE_URL [--requests 100]

The goals (issue 32), at 1,000,000 cards: no p50 above 2x its time at 1,000; the card list
and the API search p99 <= 50 ms; generation and derivation <= 10 min.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BINDIR = Path(os.environ.get("PG_BINDIR", "/usr/lib/postgresql/15/bin"))
DOCS = ROOT / "docs/PERFORMANCE.md"
BEGIN, END = "<!-- bench-scale:begin -->", "<!-- bench-scale:end -->"


# --- the cluster ------------------------------------------------------------------------


class Cluster:
    """A throwaway PostgreSQL cluster on a unix socket (scripts/ci-postgres.sh's way)."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="codex-pg-scale-"))
        (self.tmp / "sock").mkdir(mode=0o700)
        self.as_user: list[str] = []
        owner = os.environ.get("USER", "")
        if os.geteuid() == 0:
            owner = "postgres" if _has_user("postgres") else "nobody"
            self.as_user = ["runuser", "-u", owner, "--"]
            shutil.chown(self.tmp, owner)
            shutil.chown(self.tmp / "sock", owner)

    def start(self) -> None:
        data = self.tmp / "data"
        subprocess.run(
            [*self.as_user, str(BINDIR / "initdb"), "-D", str(data), "-U", "postgres",
             "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"],
            check=True, capture_output=True,
        )  # fmt: skip
        options = (
            f"-c listen_addresses='' -k {self.tmp}/sock -c fsync=off -c synchronous_commit=off "
            "-c full_page_writes=off -c shared_buffers=2GB -c maintenance_work_mem=512MB "
            "-c max_wal_size=4GB"
        )
        subprocess.run(
            [*self.as_user, str(BINDIR / "pg_ctl"), "-D", str(data), "-l",
             str(self.tmp / "server.log"), "-w", "-t", "60", "-o", options, "start"],
            check=True, capture_output=True,
        )  # fmt: skip

    def createdb(self, name: str) -> str:
        subprocess.run(
            [*self.as_user, str(BINDIR / "createdb"), "-h", f"{self.tmp}/sock", "-U",
             "postgres", name],
            check=True, capture_output=True,
        )  # fmt: skip
        return self.url(name)

    def url(self, name: str) -> str:
        return f"postgres://postgres@{str(self.tmp).replace('/', '%2F')}%2Fsock/{name}"

    def stop(self) -> None:
        if (self.tmp / "data" / "postmaster.pid").exists():
            subprocess.run(
                [*self.as_user, str(BINDIR / "pg_ctl"), "-D", str(self.tmp / "data"),
                 "-m", "immediate", "-w", "stop"],
                capture_output=True,
            )  # fmt: skip
        shutil.rmtree(self.tmp, ignore_errors=True)


def _has_user(name: str) -> bool:
    return subprocess.run(["id", name], capture_output=True).returncode == 0


# --- one size, in a child process -----------------------------------------------------


PAGE_LABELS = (
    "home",
    "card page",
    "what-if (htmx)",
    "card list: one word",
    "card list: a rarity",
    "card list: a range",
    "card list: boolean",
    "card list: a sort",
    "statistics",
    "API one card",
    "API search",
    "bulk export (first byte)",
    "wiki search",
)
SORTS = ("rarity", "name", "token", "rank", "score", "energy", "atk", "hp", "def", "ability")


def _addresses(tokens: list[int], names: list[str], words: list[str]):
    """label → (request(i) → (path, headers)): a different address per request."""
    htmx = {"HX-Request": "true"}

    def pick(i: int) -> int:
        return tokens[(i * 7919) % len(tokens)]

    rarities = ("legendary", "epic", "rare", "common")
    return {
        "home": lambda i: (f"/en/?visit={i}", {}),
        "card page": lambda i: (f"/en/cards/{pick(i)}/", {}),
        "what-if (htmx)": lambda i: (f"/en/cards/{pick(i)}/?rank={1 + i}", htmx),
        "card list: one word": lambda i: (
            f"/en/cards/?q={quote(names[i % len(names)])}&page={1 + i // len(names)}",
            {},
        ),
        "card list: a rarity": lambda i: (
            f"/en/cards/?q={quote(f'r:{rarities[i % 4]} sort:{SORTS[(i // 4) % 10]}')}"
            f"&page={1 + i // 40}",
            {},
        ),
        "card list: a range": lambda i: (
            f"/en/cards/?q={quote(f'atk>={5 + i % 10} hp>={12 + (i // 10) % 20}')}",
            {},
        ),
        "card list: boolean": lambda i: (
            "/en/cards/?q="
            + quote(f"(r:epic or r:legendary) -s:arcane nrg<={1 + i % 6} atk>={i // 6 % 12}"),
            {},
        ),
        "card list: a sort": lambda i: (
            f"/en/cards/?q={quote('sort:' + ('-' if i % 2 else '') + SORTS[(i // 2) % 10])}"
            f"&page={1 + i // 20}",
            {},
        ),
        "statistics": lambda i: (f"/en/cards/stats/?visit={i}", {}),
        "API one card": lambda i: (f"/api/cards/{pick(i)}", {}),
        "API search": lambda i: (
            f"/api/cards?q={quote(f'atk>={5 + i % 10} hp>={12 + (i // 10) % 20} sort:-atk')}",
            {},
        ),
        "bulk export (first byte)": lambda i: ("/api/bulk/cards.json", {}),
        "wiki search": lambda i: (
            f"/en/wiki/search/?q={quote(words[i % len(words)] if words else 'rarity')}",
            {},
        ),
    }


def child(size: int, requests: int, seed: int, recompute: bool = False) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.bench")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    out: dict = {"size": size}
    call_command("migrate", verbosity=0)
    call_command("load_wiki", verbosity=0)
    from cards.generator import generate
    from cards.services import store_collection

    started = time.perf_counter()
    collection = generate(seed, size)
    out["generate_s"] = time.perf_counter() - started
    started = time.perf_counter()
    store_collection(
        collection.attributes,
        collection.cards,
        [(c.spec, {"en": c.spec.name, "ru": c.name_ru}) for c in collection.combos],
        collection.derived,
    )
    out["store_s"] = time.perf_counter() - started
    del collection
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("SELECT pg_database_size(current_database())")
        out["db_bytes"] = cursor.fetchone()[0]
    out.update(time_pages(size, requests))
    if recompute:
        from django.db.models import F

        from cards.models import Card
        from cards.tasks import recompute as run_recompute

        Card.objects.update(atk=F("atk") + 1)  # as after a rules change: every row differs
        started = time.perf_counter()
        done = run_recompute(processes=2)
        out["recompute_s"] = time.perf_counter() - started
        print(f"  {size:>9,} recompute (2 processes) {out['recompute_s']:.1f} s {done}", flush=True)
    return out


def time_pages(size: int, requests: int) -> dict:
    """Each page's and API call's first view on the database as it is: p50 and p99 wall
    ms of ``requests`` requests (``pages``), and the bulk file's size and whole read."""
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    from core.memo import keep_out_of_gc

    keep_out_of_gc()  # what config/wsgi.py does once a server's process has loaded the site
    with connection.cursor() as cursor:
        cursor.execute("SELECT token FROM cards_card ORDER BY token")
        tokens = [t for (t,) in cursor.fetchall()]
        cursor.execute("SELECT name FROM cards_card WHERE NOT starter ORDER BY token LIMIT 5000")
        names = sorted({name.split(" #")[0] for (name,) in cursor.fetchall()})
        cursor.execute("SELECT title_en FROM wiki_page WHERE published")
        words = sorted({w.lower() for (t,) in cursor.fetchall() for w in t.split() if len(w) > 3})

    out: dict = {"pages": {}}
    if requests:  # what the worker does after the collection changed (explorer.tasks)
        from explorer import bulk

        began = time.perf_counter()
        bulk.current_file()
        out["bulk_write_s"] = time.perf_counter() - began
    settings.PAGE_CACHE_SECONDS = 0  # every request renders: a first view
    client = Client(HTTP_HOST="127.0.0.1")
    addresses = _addresses(tokens, names, words)
    for label in PAGE_LABELS if requests else ():  # --requests 0: generation and storage only
        request = addresses[label]
        for i in range(3):  # warm the code (other addresses)
            _get(client, *request(10_000 + i))
        times = []
        for i in range(requests):
            path, headers = request(i)
            began = time.perf_counter()
            _get(client, path, headers, whole=False)
            times.append((time.perf_counter() - began) * 1000)
        times.sort()
        out["pages"][label] = {
            "p50": statistics.median(times),
            "p99": times[min(len(times) - 1, int(len(times) * 0.99))],
        }
        print(f"  {size:>9,} {label:<22} p50 {out['pages'][label]['p50']:8.1f} ms", flush=True)
    if requests:  # the bulk file is a file: the server's part is its first byte (sendfile
        # under gunicorn sends the rest); how long reading all of it takes, for information
        began = time.perf_counter()
        out["bulk_bytes"] = _get(client, "/api/bulk/cards.json", {})
        out["bulk_read_s"] = time.perf_counter() - began
    return out


def _get(client, path: str, headers: dict, whole: bool = True) -> int:
    """GET ``path``; a streamed answer is read to its end, or to its first chunk when not
    ``whole``. Returns how many bytes were read."""
    response = client.get(path, headers=headers)
    if response.status_code != 200:
        raise SystemExit(f"{path} answered {response.status_code}: {response.content[:300]!r}")
    if not response.streaming:
        return len(response.content)
    read = 0
    for chunk in response.streaming_content:
        read += len(chunk)
        if not whole:
            break
    response.close()
    return read


# --- the table --------------------------------------------------------------------------


def table(results: list[dict]) -> str:
    sizes = [r["size"] for r in results]
    head = "| | " + " | ".join(f"{s:,} cards" for s in sizes) + " |"
    lines = [head, "|---|" + "---:|" * len(sizes)]

    def row(label: str, values: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(values) + " |")

    if all("generate_s" in r for r in results):
        row("generate + derive", [f"{r['generate_s']:.1f} s" for r in results])
        row("store (bulk insert)", [f"{r['store_s']:.1f} s" for r in results])
        row("database size", [f"{r['db_bytes'] / 2**20:,.0f} MiB" for r in results])
    if all("bulk_bytes" in r for r in results):
        row(
            "bulk file: written by the task; its size, read whole",
            [
                f"{r['bulk_write_s']:.1f} s; {r['bulk_bytes'] / 2**20:,.1f} MiB, "
                f"{r['bulk_read_s']:.2f} s"
                for r in results
            ],
        )
    if all("recompute_s" in r for r in results):
        row("recompute after a rules change", [f"{r['recompute_s']:.1f} s" for r in results])
    for label in PAGE_LABELS if all(r["pages"] for r in results) else ():
        row(
            f"{label} p50 / p99",
            [
                f"{r['pages'][label]['p50']:.1f} / {r['pages'][label]['p99']:.1f} ms"
                for r in results
            ],
        )
    return "\n".join(lines)


def write_docs(text: str) -> None:
    doc = DOCS.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN), doc.index(END)
    DOCS.write_text(doc[: start + len(BEGIN)] + "\n" + text + "\n" + doc[end:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,100000,1000000")
    parser.add_argument(
        "--requests",
        type=int,
        default=100,
        help="requests per page (0: time generation and storage only)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument(
        "--recompute",
        action="store_true",
        help="also time a recompute of every card after a rules change (2 processes)",
    )
    parser.add_argument(
        "--keep",
        action="store_true",
        help="leave the cluster and its databases running (to read plans); prints their URLs",
    )
    parser.add_argument(
        "--pages-on",
        metavar="DATABASE_URL",
        help="only time the pages, on this existing database (a kept one: --keep)",
    )
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pages_on:
        os.environ["DATABASE_URL"] = args.pages_on
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.bench"
        import django

        django.setup()
        from cards.models import Card

        size = Card.objects.count()
        print(table([{"size": size, **time_pages(size, args.requests)}]))
        return 0
    if args.child:
        result = child(args.child, args.requests, args.seed, args.recompute)
        print("RESULT " + json.dumps(result), flush=True)
        return 0
    if not (BINDIR / "initdb").exists():
        print(f"bench-scale SKIPPED: no PostgreSQL 15 server binaries in {BINDIR}.")
        return 0
    cluster = Cluster()
    results = []
    try:
        cluster.start()
        print(f"PostgreSQL cluster in {cluster.tmp}; load average {os.getloadavg()[0]:.1f}")
        for size in (int(s) for s in args.sizes.split(",")):
            url = cluster.createdb(f"scale_{size}")
            env = {
                **os.environ,
                "DATABASE_URL": url,
                "DJANGO_SETTINGS_MODULE": "config.settings.bench",
            }
            env.pop("DJANGO_CACHE_URL", None)
            command = [sys.executable, __file__, "--child", str(size),
                       "--requests", str(args.requests), "--seed", str(args.seed)]  # fmt: skip
            if args.recompute:
                command.append("--recompute")
            done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
            sys.stdout.write(
                "".join(
                    line + "\n"
                    for line in done.stdout.splitlines()
                    if not line.startswith("RESULT ")
                )
            )
            found = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
            if done.returncode or not found:
                print(done.stderr[-3000:])
                break
            results.append(json.loads(found[-1][len("RESULT ") :]))
    finally:
        if args.keep:
            print(f"Kept: DATABASE_URL={cluster.url('scale_<size>')}")
            print(f"Stop it with: pg_ctl -D {cluster.tmp}/data -m immediate stop")
        else:
            cluster.stop()
    if results:
        text = table(results) + (
            f"\n\n{args.requests} requests per page and size (with 100 or fewer, p99 is the slowest), "
            f"load average {os.getloadavg()[0]:.1f} at the end of the run, "
            f"{time.strftime('%Y-%m-%d')}."
        )
        print(text)
        if args.write_docs:
            write_docs(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
