"""`make bench`: the site's throughput and latency, side by side, in one bounded run.

Starts gunicorn (2 workers, gthread) on 127.0.0.1 with a free port, against a copy of the
demo database (db.sqlite3, filled by `make install`), warms up, then measures requests per
second and p50/p99 latency for /healthz (the framework's floor) and six real pages, each also
as a ratio to /healthz; then the pages a shared cache may keep, from gunicorn and through
Varnish side by side (skipped, saying so, without varnishd). Then the engine's own bench
scripts (bench/bench_engine.py, bench/bench_match.py) when present, and the card list at
100,000 cards (generated into a separate temporary database) when `generate_collection`
exists.

A page that does not exist yet is reported as "n/a (404)" (or as not found) instead of
failing, so the script works while the apps land. Loopback only; the whole run is bounded
(about three minutes at most). Figures go to stdout and to bench/results/latest.md; the
ones worth keeping are copied by hand into docs/PERFORMANCE.md.

    .venv/bin/python bench/run_bench.py [--duration 4] [--concurrency 4] [--skip-100k]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_arena import http_rows as arena_http_rows
from bench.bench_packs import engine_figures as packs_engine_figures
from bench.bench_packs import http_rows as packs_rows
from bench.cold import Endpoint, cold_endpoints
from bench.harness import (
    PYTHON,
    ROOT,
    Request,
    Server,
    Stats,
    copy_sqlite,
    django_env,
    fetch,
    gunicorn,
    hammer,
    has_command,
    links,
    manage,
    server_copy,
    temp_dir,
    what_ifs,
)
from bench.varnish import side_by_side

TOTAL_BUDGET = 290.0  # seconds: the whole run stays under five minutes
COLD_SECONDS = 2.0  # per endpoint on a cold server (the page cache off), in rounds:
COLD_ROUNDS = 4  # each round measures /healthz, then the endpoint right after it,
FLOOR_SECONDS = COLD_SECONDS / COLD_ROUNDS  # for as long (a shorter window reads ≈ 10 % low)
COLD_RESERVE = 2 * 13 * (COLD_SECONDS + COLD_ROUNDS * FLOOR_SECONDS + 0.8)  # both tables
LIST_QUERY = "r:legendary"
GOALS = {"card page": 1 / 3, "wiki page": 1 / 2}
HTMX = (("HX-Request", "true"),)
# Pages the same for every visitor, measured from gunicorn and through Varnish (bench/varnish.py).
SHARED_PAGES = ("home (layout)", "wiki page", "card list ?q=", "card page", "API /api/cards?q=")


@dataclass
class Target:
    label: str
    request: Request | None
    note: str = ""


@dataclass
class Row:
    label: str
    path: str
    note: str
    stats: Stats | None = None
    ratio: float | None = None  # cold: the median over rounds of req/s ÷ /healthz's just before
    cpu_ms: float | None = None  # cold: the server's own CPU time per request


class Budget:
    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds

    def left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())


# --- discovery: find real URLs the way a visitor would, by following links ------------------


def _first(paths: list[str], pattern: str, exclude: set[str] = frozenset()) -> str | None:
    regex = re.compile(pattern)
    for p in paths:
        if regex.fullmatch(p) and p not in exclude:
            return p
    return None


def discover(port: int, query: str) -> list[Target]:
    def get(path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
        status, _, body = fetch(port, path, headers=headers)
        return status, body.decode("utf-8", errors="replace")

    targets = [Target("/healthz", Request("/healthz"))]
    # The home page: the layout, middleware and context processors, next to nothing else.
    targets.append(Target("home (layout)", Request("/en/")))

    # A wiki page: the first article linked from the wiki index.
    status, html = get("/en/wiki/")
    wiki = None
    if status == 200:
        wiki = _first(links(html), r"/en/wiki/[\w-]+/", exclude={"/en/wiki/search/"})
    targets.append(
        Target(
            "wiki page", Request(wiki) if wiki else None, "" if wiki else f"no article ({status})"
        )
    )

    # Wiki search (one box across both languages), for information: no goal is set for it.
    search = "/en/wiki/search/?q=rarity"
    status, _ = get(search)
    targets.append(Target("wiki search ?q=", Request(search)))

    # The card list with a query, and a card found through it.
    list_path = f"/en/cards/?q={quote(query)}"
    status, html = get(list_path)
    targets.append(Target("card list ?q=", Request(list_path)))
    card = None
    if status == 200:
        card = _first(links(html), r"/en/cards/\d+/")
    if card is None:
        status_all, html_all = get("/en/cards/")
        if status_all == 200:
            card = _first(links(html_all), r"/en/cards/\d+/")
    targets.append(
        Target("card page", Request(card) if card else None, "" if card else "no card linked")
    )

    # The what-if fragment: a link on the card page, fetched as htmx would fetch it.
    what_if = None
    token = None
    if card:
        token = card.strip("/").split("/")[-1]
        status, html = get(card)
        candidates = what_ifs(card, html) if status == 200 else []
        what_if = candidates[0] if candidates else None
    targets.append(
        Target(
            "what-if (htmx)",
            Request(what_if, headers=HTMX) if what_if else None,
            "" if what_if else "no what-if link on the card page",
        )
    )

    # The JSON API: one card's breakdown, and a search.
    targets.append(
        Target(
            "API /api/cards/<t>",
            Request(f"/api/cards/{token}") if token else None,
            "" if token else "no card",
        )
    )
    targets.append(Target("API /api/cards?q=", Request(f"/api/cards?q={quote(query)}")))

    # A static file, by its hashed name, as the pages reference it.
    status, html = get("/en/")
    static = _first(links(html), r"/static/.+\.js") or _first(links(html), r"/static/.+")
    targets.append(
        Target("static file", Request(static) if static else None, "" if static else "no asset")
    )
    return targets


def measure(port: int, target: Target, concurrency: int, duration: float) -> Row:
    if target.request is None:
        return Row(target.label, "-", f"n/a ({target.note})")
    req = target.request
    status, _, _ = fetch(port, req.path, headers=dict(req.headers))
    if status != 200:
        return Row(target.label, req.path, f"n/a ({status})")
    hammer(port, lambda i: req, concurrency=2, duration=min(1.0, duration / 4), max_requests=500)
    stats = hammer(port, lambda i: req, concurrency, duration, max_requests=200_000)
    note = ""
    bad = {s: n for s, n in stats.statuses.items() if s != 200}
    if bad or stats.errors:
        note = f"non-200: {dict(bad)} errors: {dict(stats.errors)}"
    return Row(target.label, req.path, note, stats)


# --- first views: the page cache off, every request a different address ----------------------


def cold_env(db: Path) -> dict[str, str]:
    """A server whose page cache is off: fragment caches keyed on the collection's version
    still work (as on any server that has been up for a minute), whole pages never hit."""
    return django_env(db, DJANGO_PAGE_CACHE_SECONDS="0")


def measure_cold(
    server: Server, endpoints: list[Endpoint], concurrency: int, budget: Budget
) -> list[Row]:
    """/healthz then every endpoint, each request the next address of its cycle.

    An endpoint is measured in ``COLD_ROUNDS`` rounds, each right after a short /healthz
    window, and its ratio is the median of the rounds' ratios: on a shared machine the
    speed drifts by a factor of two within a minute, which one /healthz figure at the start
    of the table would put into every ratio. The server's CPU time per request (from
    /proc) is printed beside it: what the page itself costs, whatever the client and the
    rest of the machine were doing."""
    port = server.port
    floor_request = Request("/healthz")

    def request_of(endpoint: Endpoint) -> Callable[[int], Request]:
        def make(i: int) -> Request:
            path, headers = endpoint.request(i)
            return Request(path, headers=headers)

        return make

    rows = []
    for label, make in [("/healthz", lambda i: floor_request)] + [
        (e.label, request_of(e)) for e in endpoints
    ]:
        first = make(0)
        if budget.left() < COLD_SECONDS + COLD_ROUNDS * FLOOR_SECONDS + 2:
            rows.append(Row(label, first.path, "n/a (budget)"))
            continue
        status, _, _ = fetch(port, first.path, headers=dict(first.headers))
        if status != 200:
            rows.append(Row(label, first.path, f"n/a ({status})"))
            continue
        # Warm the code (not the pages: these addresses come after the measured ones).
        hammer(port, lambda i, make=make: make(500_000 + i), 2, 0.5, max_requests=100)
        total, ratios, cpu, offset = Stats(), [], 0.0, 0
        for _ in range(COLD_ROUNDS):
            floor = hammer(port, lambda i: floor_request, concurrency, FLOOR_SECONDS, 100_000)
            before = server.cpu_seconds()
            stats = hammer(
                port,
                lambda i, make=make, offset=offset: make(offset + i),
                concurrency,
                COLD_SECONDS / COLD_ROUNDS,
                max_requests=200_000,
            )
            after = server.cpu_seconds()
            offset += stats.count
            total.merge(stats)
            total.elapsed += stats.elapsed
            if floor.rps and stats.rps:
                ratios.append(stats.rps / floor.rps)
            if before is not None and after is not None:
                cpu += after - before
        bad = {s: n for s, n in total.statuses.items() if s != 200}
        note = f"non-200: {bad} errors: {dict(total.errors)}" if bad or total.errors else ""
        rows.append(
            Row(
                label,
                first.path,
                note,
                total,
                ratio=statistics.median(ratios) if ratios else None,
                cpu_ms=1000 * cpu / total.count if total.count and cpu else None,
            )
        )
    return rows


def cold_database(source: Path, tmp: Path, name: str) -> Path:
    db = tmp / f"cold-{name}.sqlite3"
    copy_sqlite(source, db)
    return db


def cold_table(
    warm: dict[str, Row], small: list[Row], large: list[Row] | None, size: int
) -> list[str]:
    """Warm and cold side by side, each as a ratio to /healthz on its own server (cold:
    the median of interleaved rounds), with the server's CPU time per cold request."""
    warm_floor = _rps(warm.get("/healthz"))
    large_by = {r.label: r for r in large or []}
    head = (
        "| endpoint | warm × /healthz | cold req/s | cold × /healthz | server CPU ms "
        f"| cold p50 ms | {size:,}: cold req/s | × /healthz | server CPU ms "
        "| p50 ms | time vs 1,000 |"
    )
    out = [head, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in small:
        w = warm.get(WARM_LABEL.get(row.label, row.label))
        cells = [row.label, _ratio(w, warm_floor)]
        cells += _cold_cells(row)
        big = large_by.get(row.label)
        if big is None or big.stats is None:
            cells += [big.note if big else "-", "", "", "", ""]
        else:
            cells += _cold_cells(big)
            if row.ratio and big.ratio:
                # Time per request relative to /healthz's, so the machine's load cancels out.
                slower = row.ratio / big.ratio
                cells.append(f"{slower:.2f}×")
            else:
                cells.append("")
        out.append("| " + " | ".join(cells) + " |")
    return out


def _cold_cells(row: Row) -> list[str]:
    """req/s, × /healthz, server CPU ms and p50 ms of a cold row (its note if unmeasured)."""
    if row.stats is None:
        return [row.note, "", "", ""]
    return [
        f"{row.stats.rps:,.0f}",
        f"{row.ratio:.2f}" if row.ratio is not None else "-",
        f"{row.cpu_ms:.2f}" if row.cpu_ms is not None else "-",
        f"{row.stats.percentile(50) * 1e3:.1f}",
    ]


#: The warm table's label of each cold endpoint, where they differ.
WARM_LABEL = {"wiki search": "wiki search ?q="}


def _rps(row: Row | None) -> float | None:
    return row.stats.rps if row is not None and row.stats is not None else None


def _ratio(row: Row | None, floor: float | None) -> str:
    rps = _rps(row)
    return f"{rps / floor:.2f}" if rps is not None and floor else "-"


# --- the engine's own bench scripts --------------------------------------------------------


def engine_figures(budget: Budget) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for script, unit in (("bench_engine.py", "breakdowns/s"), ("bench_match.py", "matches/s")):
        path = ROOT / "bench" / script
        if not path.exists():
            out.append((script, "n/a (script not there yet)"))
            continue
        timeout = min(60.0, budget.left() - 60)
        if timeout < 5:
            out.append((script, "n/a (no time left in the budget)"))
            continue
        try:
            result = subprocess.run(
                [PYTHON, str(path)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=timeout,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        except subprocess.TimeoutExpired:
            out.append((script, f"n/a (took over {timeout:.0f} s)"))
            continue
        text = (result.stdout + result.stderr).strip()
        if result.returncode != 0:
            out.append((script, f"n/a (exit {result.returncode}: {text.splitlines()[-1:]})"))
            continue
        lines = [line for line in text.splitlines() if line.strip()]
        figure = [line for line in lines if re.search(r"/\s*s|per second", line)]
        out.append((f"{script} ({unit})", " | ".join(figure[-2:] or lines[-2:])))
    return out


def market_figures(scale_db: Path | None, note: str) -> list[str]:
    """Recording a day's market import touching 10 % of the large collection (≤ 30 s)."""
    if scale_db is None:
        return [f"n/a: {note}"]
    try:
        result = subprocess.run(
            [PYTHON, str(ROOT / "bench" / "bench_market.py"), "--database", str(scale_db)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=180,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    except subprocess.TimeoutExpired:
        return ["n/a (took over 180 s)"]
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    if result.returncode != 0:
        return [
            f"n/a (exit {result.returncode}: {(result.stderr or '').strip().splitlines()[-1:]})"
        ]
    return lines[-4:]


# --- the list page at 100,000 cards --------------------------------------------------------


GENERATE_TIMEOUT = 600.0  # the one-off generation of the large collection, outside the budget
RESULTS = ROOT / "bench" / "results"


def scale_key(size: int) -> str:
    """What the large collection depends on: the cards app (generator, models, migrations)
    and the engine (its derivation fills the stored fields), and the size."""
    digest = hashlib.sha256(str(size).encode())
    for folder in ("cards", "engine"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def scale_database(size: int) -> tuple[Path | None, str]:
    """The large collection's database, generated once and cached in bench/results/
    (git-ignored) until the cards app or the engine changes. Returns (path, note)."""
    cache = RESULTS / f"scale-{size}.sqlite3"
    key_file = RESULTS / f"scale-{size}.key"
    key = scale_key(size)
    if cache.exists() and key_file.exists() and key_file.read_text().strip() == key:
        return cache, "cached database"
    building = RESULTS / f"scale-{size}.building.sqlite3"
    for stale in (cache, key_file, building):
        stale.unlink(missing_ok=True)
    env = django_env(building)
    if not has_command("generate_collection", env):
        return None, f"`manage.py generate_collection` does not exist yet ({size:,} cards)"
    print(
        f"(one-off: generating {size:,} cards with generate_collection, at most "
        f"{GENERATE_TIMEOUT:.0f} s; cached in bench/results/ for later runs)",
        flush=True,
    )
    started = time.monotonic()
    result = manage(["migrate", "--noinput"], env, timeout=300)
    if result.returncode != 0:
        return None, f"migrate failed: {result.stderr.strip().splitlines()[-1:]}"
    try:
        result = manage(["generate_collection", "--size", str(size)], env, timeout=GENERATE_TIMEOUT)
    except subprocess.TimeoutExpired:
        building.unlink(missing_ok=True)
        return None, f"generate_collection --size {size} took over {GENERATE_TIMEOUT:.0f} s"
    if result.returncode != 0:
        building.unlink(missing_ok=True)
        tail = (result.stderr or result.stdout).strip().splitlines()[-1:]
        return None, f"generate_collection failed: {tail}"
    with sqlite3.connect(building) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for suffix in ("-wal", "-shm"):
        Path(f"{building}{suffix}").unlink(missing_ok=True)
    building.rename(cache)
    key_file.write_text(key + "\n")
    return cache, f"generated in {time.monotonic() - started:.0f} s (one-off, now cached)"


def list_at_scale(
    size: int, source: Path, note: str, query: str, budget: Budget, tmp: Path
) -> list[str]:
    db = tmp / f"scale-{size}.sqlite3"
    copy_sqlite(source, db)
    env = django_env(db)
    with sqlite3.connect(db) as conn:
        cards = conn.execute("SELECT COUNT(*) FROM cards_card").fetchone()[0]
    lines = [f"{cards:,} cards, {db.stat().st_size / 1e6:.0f} MB SQLite ({note})"]
    with gunicorn(env, tmp / "server-scale.log") as server:
        for label, path in (
            ("card list ?q=", f"/en/cards/?q={quote(query)}"),
            ("card list, no query", "/en/cards/"),
            ("card list, a late page", "/en/cards/?page=500"),
            ("card list, free text", "/en/cards/?q=crown"),
        ):
            if budget.left() < 4:
                lines.append(f"{label}: n/a (budget)")
                continue
            row = measure(server.port, Target(label, Request(path)), 2, min(3.0, budget.left() - 3))
            lines.append(format_scale_row(row))
    return lines


def format_scale_row(row: Row) -> str:
    if row.stats is None:
        return f"{row.label}: {row.note}"
    s = row.stats
    return (
        f"{row.label} ({row.path}): {s.rps:,.1f} req/s, p50 {s.percentile(50) * 1e3:.1f} ms, "
        f"p99 {s.percentile(99) * 1e3:.1f} ms {row.note}".rstrip()
    )


# --- reporting -------------------------------------------------------------------------------


def machine() -> list[tuple[str, str]]:
    import django

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        from importlib.metadata import version

        gunicorn_version = version("gunicorn")
    except Exception:
        gunicorn_version = "?"
    return [
        ("cores (nproc)", str(os.cpu_count())),
        ("CPU", cpu),
        ("Python", platform.python_version()),
        ("Django", django.get_version()),
        ("SQLite", sqlite3.sqlite_version),
        ("gunicorn", f"{gunicorn_version}, 2 workers, gthread x4 threads"),
        ("load average at start (1/5/15 min)", " / ".join(f"{x:.2f}" for x in os.getloadavg())),
    ]


def table(rows: list[Row], floor: float | None) -> list[str]:
    head = "| endpoint | path | req/s | × /healthz | p50 ms | p99 ms | requests | note |"
    out = [head, "|---|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        path = r.path if len(r.path) <= 48 else r.path[:45] + "…"
        if r.stats is None:
            out.append(f"| {r.label} | `{path}` | {r.note} | | | | | |")
            continue
        s = r.stats
        ratio = f"{s.rps / floor:.2f}" if floor else "-"
        out.append(
            f"| {r.label} | `{path}` | {s.rps:,.0f} | {ratio} | {s.percentile(50) * 1e3:.1f} "
            f"| {s.percentile(99) * 1e3:.1f} | {s.count:,} | {r.note} |"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=4.0, help="seconds per endpoint")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--query", default=LIST_QUERY)
    parser.add_argument("--size", type=int, default=100_000, help="cards for the scale test")
    parser.add_argument("--skip-100k", action="store_true")
    parser.add_argument("--database", type=Path, default=ROOT / "db.sqlite3")
    args = parser.parse_args(argv)
    if not args.database.exists():
        print(f"{args.database} does not exist: run `make install` first.", file=sys.stderr)
        return 2
    RESULTS.mkdir(exist_ok=True)
    scale_db, scale_note = (None, "skipped (--skip-100k)")
    if not args.skip_100k:
        scale_db, scale_note = scale_database(args.size)
    budget = Budget(TOTAL_BUDGET)  # the measurements proper, after any one-off preparation

    report: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        report.append(line)

    say("## Machine")
    say()
    for k, v in machine():
        say(f"- {k}: {v}")
    say()
    with temp_dir("codex-bench-") as tmp_name:
        tmp = Path(tmp_name)
        db, env, notes = server_copy(args.database, tmp)
        for note in notes:
            print(f"({note})", flush=True)
        with gunicorn(env, tmp / "server.log") as server:
            targets = discover(server.port, args.query)
            per = min(
                args.duration,
                max(1.0, (budget.left() - 110 - COLD_RESERVE) / len(targets) / 1.25),
            )
            rows = [measure(server.port, t, args.concurrency, per) for t in targets]
            rows += packs_rows(server.port, args.concurrency, per)  # booster packs
            rows += [Row(*r) for r in arena_http_rows(server.port, args.concurrency, per / 2)]
            shared = [(t.label, t.request) for t in targets if t.label in SHARED_PAGES]
            shared_lines = side_by_side(
                server.port,
                [(label, request) for label, request in shared if request is not None],
                args.concurrency,
                min(per, 2.0),
                tmp / "varnish",
            )
            errors = [
                line
                for line in server.log_text().splitlines()
                if "Traceback" in line or "ERROR" in line or "database is locked" in line
            ]
        with gunicorn(cold_env(db), tmp / "server-cold.log") as server:
            cold_small = measure_cold(server, cold_endpoints(db), args.concurrency, budget)
            errors += [
                line
                for line in server.log_text().splitlines()
                if "Traceback" in line or "ERROR" in line or "database is locked" in line
            ]
        cold_large = None
        if scale_db is not None:
            large = cold_database(scale_db, tmp, "large")
            with gunicorn(cold_env(large), tmp / "server-cold-large.log") as server:
                cold_large = measure_cold(server, cold_endpoints(large), args.concurrency, budget)
        floor = rows[0].stats.rps if rows[0].stats else None
        say(
            f"## HTTP: {args.concurrency} keep-alive connections, {per:.1f} s per endpoint "
            f"after a warm-up, demo database copy"
        )
        say()
        for line in table(rows, floor):
            say(line)
        say()
        by_label = {r.label: r for r in rows}
        for label, goal in GOALS.items():
            r = by_label.get(label)
            if r is None or r.stats is None or not floor:
                say(
                    f"- goal {label} ≥ {goal:.2f} × /healthz: not measured ({r.note if r else '-'})"
                )
            else:
                ratio = r.stats.rps / floor
                verdict = "met" if ratio >= goal else "NOT met"
                say(f"- goal {label} ≥ {goal:.2f} × /healthz: {ratio:.2f} — {verdict}")
        if errors:
            say(f"- server log: {len(errors)} error lines, first: {errors[0][:200]}")
        say()
        say(
            f"## Shared HTTP cache: the same pages from gunicorn and through Varnish "
            f"(docs/varnish/default.vcl), {args.concurrency} connections, {min(per, 2.0):.1f} s each"
        )
        say()
        for line in shared_lines:
            say(line)
        say()
        say(
            f"## First views (cold): the page cache off, every request a different address, "
            f"{COLD_SECONDS:.1f} s per endpoint in {COLD_ROUNDS} rounds; at 1,000 and "
            f"{args.size:,} cards"
        )
        say()
        say(
            "Each ratio is to /healthz on the same server in the same run: the median over "
            f"{COLD_ROUNDS} rounds, each measuring /healthz for {FLOOR_SECONDS} s and then the "
            "endpoint for as long. Server CPU is the server's own CPU time per request (its processes, "
            "from /proc). "
            f"'time vs 1,000' is the time per request relative to /healthz at {args.size:,} "
            f"cards over the same at 1,000. For information: the goals are the in-process "
            "budgets of bench/profile_pages.py (docs/PERFORMANCE.md)."
        )
        say()
        for line in cold_table(by_label, cold_small, cold_large, args.size):
            say(line)
        say()
        say("## Engine")
        say()
        for name, figure in engine_figures(budget) + packs_engine_figures():
            say(f"- {name}: {figure}")
        say()
        say(f"## Card list at {args.size:,} cards")
        say()
        if scale_db is None:
            say(f"- n/a: {scale_note}")
        else:
            for line in list_at_scale(args.size, scale_db, scale_note, args.query, budget, tmp):
                say(f"- {line}")
        say()
        say("## Explorer: boolean searches, pages, random card, bulk file (bench_collection.py)")
        say()
        from bench.bench_collection import explorer_section

        for line in explorer_section([("1,000", db), (f"{args.size:,}", scale_db)]):
            say(f"- {line}")
        say()
        say(f"## A day's market import at {args.size:,} cards (bench_market.py, issue 29)")
        say()
        for line in market_figures(scale_db, scale_note):
            say(f"- {line}")
        say()
        say("## Wiki search: questions as players type them (bench_wiki_search.py)")
        say()
        from bench.bench_wiki_search import questions_section

        for line in questions_section(db):
            say(f"- {line}")
    say()
    say(f"Total bench time: {TOTAL_BUDGET - budget.left():.0f} s")
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    say(f"Load average at the end: {load} (other work on the machine skews every figure)")
    (RESULTS / "latest.md").write_text("\n".join(report) + "\n")
    print(f"(written to {RESULTS / 'latest.md'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
