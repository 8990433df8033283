#!/usr/bin/env python
"""Booster packs: the engine's exact odds and draws, and the pages' throughput (prints
figures; never asserts).

- Exact odds of one pack of 10 from a 1,000-card pool (goal ≤ 5 ms): from a plain
  list of (id, rarity) — checking the pool included — and from a prepared ``PackPool``.
- Draws per second of packs of 5 from a 1,000-card pool on one core (goal ≥ 10,000/s):
  from a prepared ``PackPool`` (what the site and the odds check use), and from a list;
  and as an opening draws since the ledger (issue 31): the seed made by HMAC-SHA256 of
  the day's server seed and the client seed with its nonce, then ``random.Random(seed)``.
- A day's ledger of 10,000 openings checked by ``engine.ledger.verify_ledger`` — the
  commitment, the hash chain and every pick (goal ≤ 2 s).
- Over HTTP, next to /healthz in the same run: the pool page (a repeat view, cached)
  and opening a pack (a POST that draws and stores an opening, then redirects; each
  request carries a fresh masked CSRF token, so each one opens a new pack).

    .venv/bin/python bench/bench_packs.py [--duration 4] [--concurrency 4] [--skip-http]

``make bench`` (bench/run_bench.py) calls ``engine_figures()`` and ``http_rows()``
with its own server, so the ratios share its /healthz floor.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import HOST, ROOT, Request, Stats, fetch, hammer
from engine.ledger import chain, commitment, draw_seed, verify_ledger
from engine.packs import PackPool, draw_offer, offer_odds
from engine.types import Rarity

POOL_SIZE = 1000
# Tier counts close to the demo collection's (569 / 203 / 57 / 146 of 975).
MIX = ((Rarity.COMMON, 580), (Rarity.RARE, 210), (Rarity.EPIC, 60), (Rarity.LEGENDARY, 150))
ODDS_GOAL_MS = 5.0
DRAWS_GOAL = 10_000
LEDGER_OPENINGS = 10_000
LEDGER_GOAL_S = 2.0
POOL_PATH = "/en/packs/whole-collection/"
OPEN_PATH = "/en/packs/whole-collection/open/"


def synthetic_pool() -> list[tuple[int, Rarity]]:
    rarities = [tier for tier, n in MIX for _ in range(n)]
    random.Random(15).shuffle(rarities)
    return [(token, rarity) for token, rarity in enumerate(rarities, start=1)]


def _per_call(func, repeat: int, number: int) -> tuple[float, float]:
    """(best, median) seconds per call over ``repeat`` rounds of ``number`` calls."""
    rounds = []
    for _ in range(repeat):
        started = time.process_time()
        for _ in range(number):
            func()
        rounds.append((time.process_time() - started) / number)
    return min(rounds), statistics.median(rounds)


def engine_figures() -> list[tuple[str, str]]:
    pool = synthetic_pool()
    prepared = PackPool.of(pool)
    rng = random.Random(1)
    best, med = _per_call(lambda: offer_odds(pool, 10), repeat=7, number=20)
    _, pmed = _per_call(lambda: offer_odds(prepared, 10), repeat=7, number=20)
    verdict = "met" if med * 1e3 <= ODDS_GOAL_MS else "NOT met"
    figures = [
        (
            "exact odds, 1,000 cards, k = 10",
            f"{med * 1e3:.2f} ms median (best {best * 1e3:.2f}) from a list; "
            f"{pmed * 1e3:.2f} ms from a prepared pool — goal ≤ {ODDS_GOAL_MS:g} ms: {verdict}",
        )
    ]
    dbest, dmed = _per_call(lambda: draw_offer(prepared, 5, rng), repeat=5, number=20_000)
    _, lmed = _per_call(lambda: draw_offer(pool, 5, rng), repeat=3, number=300)
    verdict = "met" if 1 / dmed >= DRAWS_GOAL else "NOT met"
    figures.append(
        (
            "draws, 1,000 cards, k = 5, one core",
            f"{1 / dmed:,.0f} packs/s median (best {1 / dbest:,.0f}) from a prepared pool; "
            f"{1 / lmed:,.0f} packs/s from a list (checked each time) — "
            f"goal ≥ {DRAWS_GOAL:,}/s: {verdict}",
        )
    )
    server_seed = bytes(range(32))
    nonce = iter(range(1, 10**9))

    def ledger_draw() -> None:
        n = next(nonce)
        draw_offer(prepared, 5, random.Random(draw_seed(server_seed, f"client-{n}", n)))

    _, smed = _per_call(ledger_draw, repeat=5, number=20_000)
    verdict = "met" if 1 / smed >= DRAWS_GOAL else "NOT met"
    figures.append(
        (
            "openings' draws with the ledger's seed (HMAC + draw), k = 5",
            f"{1 / smed:,.0f} packs/s median — goal ≥ {DRAWS_GOAL:,}/s: {verdict}",
        )
    )
    ledger = _ledger(prepared, server_seed, LEDGER_OPENINGS)
    seconds, _ = _per_call(lambda: verify_ledger(ledger), repeat=3, number=1)
    ok = verify_ledger(ledger).ok
    verdict = "met" if seconds <= LEDGER_GOAL_S and ok else "NOT met"
    figures.append(
        (
            f"verify a day's ledger of {LEDGER_OPENINGS:,} openings",
            f"{seconds:.2f} s (best of 3; {'holds' if ok else 'FAILS'}) — "
            f"goal ≤ {LEDGER_GOAL_S:g} s: {verdict}",
        )
    )
    return figures


def _ledger(pool: PackPool, server_seed: bytes, openings: int) -> dict:
    """A day's ledger of ``openings`` packs of 5 from ``pool`` (engine.ledger's shape)."""
    promised = commitment(server_seed)
    entries = []
    prev = promised
    for n in range(1, openings + 1):
        client_seed = f"client-{n}"
        picks = draw_offer(pool, 5, random.Random(draw_seed(server_seed, client_seed, n)))
        entry = chain(
            prev,
            {
                "n": n,
                "pool": "bench",
                "odds_version": "bench:1",
                "client_seed": client_seed,
                "picks": [c.card_id for c in picks],
            },
        )
        entries.append(entry)
        prev = entry["hash"]
    candidates = [[c.card_id, c.rarity.value] for c in pool.candidates]
    return {
        "date": "2026-12-06",
        "commitment": promised,
        "server_seed": server_seed.hex(),
        "versions": {"bench:1": candidates},
        "entries": entries,
    }


# --- HTTP -----------------------------------------------------------------------------------


@dataclass
class Row:
    """A row for bench/run_bench.py's table (the same fields as its own rows)."""

    label: str
    path: str
    note: str
    stats: Stats | None = None


def _cookie(headers: dict[str, str], name: str) -> str | None:
    for part in headers.get("set-cookie", "").replace(",", ";").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def _visitor(port: int) -> tuple[str, str] | None:
    """A visitor's CSRF secret and session (one open, to get the session cookie)."""
    from django.middleware.csrf import _mask_cipher_secret

    status, headers, _ = fetch(port, POOL_PATH)
    secret = _cookie(headers, "csrftoken")
    if status != 200 or not secret:
        return None
    cookie = f"csrftoken={secret}"
    status, headers, _ = fetch(
        port,
        OPEN_PATH,
        "POST",
        headers=_post_headers(port, cookie, _mask_cipher_secret(secret)),
        body=urlencode(
            {"csrfmiddlewaretoken": _mask_cipher_secret(secret), "client_seed": "bench"}
        ).encode(),
    )
    session = _cookie(headers, "sessionid")
    if status != 302 or not session:
        return None
    return secret, f"{cookie}; sessionid={session}"


def _post_headers(port: int, cookie: str, token: str) -> dict[str, str]:
    return {
        "Cookie": cookie,
        "Content-Type": "application/x-www-form-urlencoded",
        "Origin": f"http://{HOST}:{port}",
        "Referer": f"http://{HOST}:{port}{POOL_PATH}",
        "X-CSRFToken": token,
    }


def http_rows(port: int, concurrency: int, duration: float) -> list[Row]:
    """The pool page and opening a pack, measured like run_bench's other rows."""
    from django.middleware.csrf import _mask_cipher_secret

    rows = []
    page = Request(POOL_PATH)
    status, _, _ = fetch(port, POOL_PATH)
    if status != 200:
        return [Row("booster pool page", POOL_PATH, f"n/a ({status})")]
    hammer(port, lambda i: page, concurrency=2, duration=min(1.0, duration / 4), max_requests=300)
    stats = hammer(port, lambda i: page, concurrency, duration, max_requests=200_000)
    rows.append(Row("booster pool page", POOL_PATH, _note(stats, {200}), stats))
    visitor = _visitor(port)
    if visitor is None:
        return [*rows, Row("open a pack (POST)", OPEN_PATH, "n/a (no CSRF cookie or session)")]
    secret, cookie = visitor

    def opening(i: int) -> Request:
        token = _mask_cipher_secret(secret)  # a fresh form token: a new pack each time
        body = urlencode({"csrfmiddlewaretoken": token, "client_seed": f"bench-{i}"}).encode()
        headers = tuple(_post_headers(port, cookie, token).items())
        return Request(OPEN_PATH, "POST", headers, body)

    stats = hammer(port, opening, concurrency, duration, max_requests=200_000)
    rows.append(Row("open a pack (POST → 302)", OPEN_PATH, _note(stats, {302}), stats))
    return rows


def _note(stats: Stats, good: set[int]) -> str:
    bad = {s: n for s, n in stats.statuses.items() if s not in good}
    return f"unexpected: {bad} errors: {dict(stats.errors)}" if bad or stats.errors else ""


def _standalone_http(duration: float, concurrency: int) -> list[str]:
    from bench.harness import gunicorn, server_copy, temp_dir

    database = ROOT / "db.sqlite3"
    if not database.exists():
        return ["HTTP: n/a (no db.sqlite3: run `make install` first)"]
    lines = []
    with temp_dir("codex-bench-packs-") as tmp_name:
        tmp = Path(tmp_name)
        _db, env, _notes = server_copy(database, tmp)
        with gunicorn(env, tmp / "server.log") as server:
            health = Request("/healthz")
            hammer(server.port, lambda i: health, 2, 1.0, 500)
            floor = hammer(server.port, lambda i: health, concurrency, duration, 200_000)
            lines.append(f"/healthz: {floor.rps:,.0f} req/s")
            for row in http_rows(server.port, concurrency, duration):
                if row.stats is None:
                    lines.append(f"{row.label}: {row.note}")
                    continue
                s = row.stats
                lines.append(
                    f"{row.label}: {s.rps:,.0f} req/s = {s.rps / floor.rps:.2f} × /healthz, "
                    f"p50 {s.percentile(50) * 1e3:.1f} ms, p99 {s.percentile(99) * 1e3:.1f} ms "
                    f"{row.note}".rstrip()
                )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=4.0)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--skip-http", action="store_true")
    args = parser.parse_args(argv)
    for name, figure in engine_figures():
        print(f"- {name}: {figure}", flush=True)
    if not args.skip_http:
        for line in _standalone_http(args.duration, args.concurrency):
            print(f"- {line}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
