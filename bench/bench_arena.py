#!/usr/bin/env python
"""The slab arena's figures (prints them; never asserts):

1. Engine: greedy-vs-greedy arena matches per second on one core (CPU time of this
   single-threaded process), over random legal teams of demo-like slabs; the planner too.
2. HTTP (with --http): gunicorn on 127.0.0.1 against a copy of the demo database,
   /healthz, the slab explorer, a slab page and match actions (a POST that plays a move and
   the bot's reply, as htmx sends it), each as requests/s and as a ratio to /healthz.

    .venv/bin/python bench/bench_arena.py [--matches 10000] [--http]
        [--duration 3] [--concurrency 4] [--database db.sqlite3]

`make bench` (bench/run_bench.py) puts all of it in its table through ``http_rows``: the
engine's rate, then the pages on its own server, as ratios to its /healthz.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.arena.bots import make_bot, play_match
from engine.arena.slabs import (
    TEAM_LIMITED_MAX,
    TEAM_LIMITED_TIERS,
    Slab,
    SlabStats,
    slab_stats,
)

TURN = re.compile(r'name="turn" value="(\d+)"')
MOVE = re.compile(r'<button type="submit" name="move" value="([a-z:0-9]+)"[^>]*?( disabled)?>')
MATCH = re.compile(r"/[a-z]{2}/arena/m/[0-9a-f-]{36}/")


# --- the engine ---------------------------------------------------------------------------


def demo_like_slabs(rng: random.Random, count: int = 200) -> list[SlabStats]:
    """Slabs with values, grades and years spread like the demo set's."""
    out = []
    for i in range(count):
        value = Decimal(str(round(rng.lognormvariate(3.7, 1.4), 2)))
        grade = Decimal(rng.choice((10, 9.5, 9, 9, 8.5, 8, 8, 7, 6, 5)))
        out.append(
            slab_stats(Slab(f"cc-{i:06d}", f"Slab {i}", grade, rng.randint(1996, 2025)), value)
        )
    return out


def legal_team(pool: list[SlabStats], rng: random.Random) -> list[SlabStats]:
    while True:
        team = rng.sample(pool, 4)
        if sum(m.tier in TEAM_LIMITED_TIERS for m in team) <= TEAM_LIMITED_MAX:
            return team


def engine_bench(matches: int, seed: int, bots: tuple[str, str]) -> float:
    rng = random.Random(seed)
    pool = demo_like_slabs(rng)
    pairs = [(legal_team(pool, rng), legal_team(pool, rng)) for _ in range(500)]
    players = [make_bot(b) for b in bots]
    turns = actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(matches):
        a, b = pairs[i % len(pairs)]
        record = play_match(a, b, players, seed + i)
        turns += record.state.turn
        actions += len(record.actions)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    rate = matches / cpu
    print(f"{bots[0]} vs {bots[1]}: {matches} arena matches in {wall:.2f} s")
    print(f"  {rate:,.0f} matches/s on one core (CPU time {cpu:.2f} s)")
    print(f"  {matches / wall:,.0f} matches/s by the wall clock")
    print(f"  {turns / matches:.1f} turns and {actions / matches:.1f} actions per match")
    return rate


# --- HTTP ---------------------------------------------------------------------------------


def _first_slab(port: int) -> str | None:
    import json

    from bench.harness import fetch

    status, _, body = fetch(port, "/api/slabs?page_size=1&sort=value_asc")
    if status != 200:
        return None
    results = json.loads(body).get("results") or []
    return results[0]["asset_id"] if results else None


def _next_move(html: str) -> str:
    moves = [value for value, disabled in MOVE.findall(html) if not disabled]
    for prefix in ("replace:", "attack:basic", "pass"):
        for move in moves:
            if move.startswith(prefix):
                return move
    return "pass"


def _new_match(session) -> tuple[str, str]:
    """Fill a random rookie team and start a match; (match path, its page)."""
    session.request("GET", "/en/arena/team/")
    session.request("POST", "/en/arena/team/", {"op": "fill", "bracket": "rookie"})
    status, headers, _ = session.request(
        "POST", "/en/arena/play/", {"bracket": "rookie", "bot": "greedy"}
    )
    found = MATCH.search(headers.get("location", ""))
    if status != 302 or not found:
        raise RuntimeError(f"could not start a match ({status})")
    path = found.group(0)
    return path, session.request("GET", path)[2]


def match_actions(port: int, concurrency: int, duration: float):
    """Players posting moves as fast as the server answers (htmx: one request a move)."""
    from bench.harness import Session, run_workers

    deadline = time.monotonic() + duration

    def worker(stats) -> None:
        session = Session(port)
        try:
            path, html = _new_match(session)
            while time.monotonic() < deadline:
                if "result-panel" in html or not TURN.search(html):
                    session.request("POST", f"{path}rematch/", {})
                    path, html = _new_match(session)
                    continue
                data = {"turn": TURN.search(html).group(1), "move": _next_move(html)}
                started = time.perf_counter()
                status, _, html = session.request(
                    "POST", f"{path}act/", data, {"HX-Request": "true"}
                )
                stats.latencies.append(time.perf_counter() - started)
                stats.statuses[status] += 1
        except (OSError, RuntimeError) as exc:
            stats.errors[f"{type(exc).__name__}: {exc}"[:120]] += 1
        finally:
            session.close()

    return run_workers(worker, concurrency, duration)


def http_rows(port: int, concurrency: int, duration: float) -> list[tuple[str, str, str, object]]:
    """(label, path, note, Stats or None) for bench/run_bench.py's table, next to /healthz:
    the engine's greedy-vs-greedy rate (a figure, no HTTP), then the slab explorer, a slab
    page and match actions on its running server."""
    import io
    from contextlib import redirect_stdout

    from bench.harness import Request, hammer

    with redirect_stdout(io.StringIO()):
        rate = engine_bench(5000, 1, ("greedy", "greedy"))
    out: list[tuple[str, str, str, object]] = [
        ("arena engine: greedy vs greedy", "-", f"{rate:,.0f} matches/s on one core (CPU)", None)
    ]
    slab = _first_slab(port)
    pages = [("arena: slab explorer", "/en/arena/slabs/")]
    if slab:
        pages.append(("arena: slab page", f"/en/arena/slabs/{slab}/"))
    for label, path in pages:
        req = Request(path)
        hammer(port, lambda i, r=req: r, 2, min(1.0, duration / 3), 300)
        stats = hammer(port, lambda i, r=req: r, concurrency, duration, 200_000)
        bad = {s: n for s, n in stats.statuses.items() if s != 200}
        out.append((label, path, f"non-200: {bad}" if bad else "", stats))
    stats = match_actions(port, concurrency, duration)
    bad = {s: n for s, n in stats.statuses.items() if s not in (200, 409)}
    note = f"non-200: {bad}" if bad else ""
    if stats.errors:
        note += f" errors: {dict(stats.errors)}"
    out.append(("arena: match action (htmx POST)", "/en/arena/m/<id>/act/", note.strip(), stats))
    return out


def http_bench(database: Path, duration: float, concurrency: int) -> list[tuple[str, float, float]]:
    from bench.harness import Request, gunicorn, hammer, server_copy, temp_dir

    rows = []
    with temp_dir("arena-bench-") as tmp_name:
        tmp = Path(tmp_name)
        _db, env, _notes = server_copy(database, tmp)
        with gunicorn(env, tmp / "server.log") as server:
            slab = _first_slab(server.port)
            targets = [("/healthz", "/healthz"), ("slab explorer", "/en/arena/slabs/")]
            if slab:
                targets.append(("slab page", f"/en/arena/slabs/{slab}/"))
            for label, path in targets:
                req = Request(path)
                hammer(server.port, lambda i, r=req: r, 2, min(1.0, duration / 3), 300)
                stats = hammer(server.port, lambda i, r=req: r, concurrency, duration, 200_000)
                rows.append((label, stats.rps, stats.percentile(50) * 1e3))
            stats = match_actions(server.port, concurrency, duration)
            bad = {s: n for s, n in stats.statuses.items() if s not in (200, 409)}
            label = "match action (POST, htmx)" + (f" non-200: {bad}" if bad else "")
            if stats.errors:
                label += f" errors: {dict(stats.errors)}"
            rows.append((label, stats.rps, stats.percentile(50) * 1e3))
    floor = rows[0][1] or 1.0
    print(f"HTTP, {concurrency} connections, {duration:.0f} s each (gunicorn, demo database copy):")
    for label, rps, p50 in rows:
        print(f"  {label}: {rps:,.0f} req/s, p50 {p50:.1f} ms, {rps / floor:.2f} × /healthz")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--http", action="store_true", help="also measure pages (a few s)")
    parser.add_argument("--duration", type=float, default=3.0)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument(
        "--database", type=Path, default=Path(__file__).resolve().parent.parent / "db.sqlite3"
    )
    args = parser.parse_args()
    greedy = engine_bench(args.matches, args.seed, ("greedy", "greedy"))
    engine_bench(args.matches // 2, args.seed, ("planner", "planner"))
    summary = f"arena: {greedy:,.0f} greedy-vs-greedy matches/s on one core"
    if args.http and args.database.exists():
        rows = http_bench(args.database, args.duration, args.concurrency)
        floor = rows[0][1] or 1.0
        ratios = {label.split(" (")[0]: rps / floor for label, rps, _ in rows[1:]}
        summary += "; " + ", ".join(f"{k} {v:.2f} × /healthz" for k, v in ratios.items())
    print(summary)


if __name__ == "__main__":
    main()
