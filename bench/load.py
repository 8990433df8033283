"""`make load`: 60 seconds of mixed traffic at 32 concurrent connections, then the verdict.

Starts gunicorn (2 workers, gthread) on 127.0.0.1 against a copy of the demo database and
runs 32 virtual users, each with its own keep-alive connection and cookie jar (session and
CSRF token). Most users browse: home, wiki pages, wiki search, card searches, card pages,
what-ifs (as htmx), the JSON API, static files. Every second user plays the match demo:
starts a match and posts its actions the way htmx does, many sessions at once.

Afterwards it prints requests, rps, p50/p99, the 5xx count, the number of "database is
locked" lines in the server log, and checks that no match action was lost: every action the
server accepted must be in that match's stored log in the database. Exits non-zero on any
5xx, any lock error or any lost action. Loopback only; bounded in time and count.

    .venv/bin/python bench/load.py [--duration 60] [--users 32] [--players 16]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import (
    PYTHON,
    ROOT,
    Session,
    Stats,
    fetch,
    gunicorn,
    links,
    server_copy,
    temp_dir,
    what_ifs,
)
from bench.htmlforms import Form, parse_page

QUERIES = [
    "r:legendary",
    "r>=epic",
    "s:arcane",
    "role:tank",
    "rank<=80",
    "supply<=3",
    "burned>=1",
    "crown",
    "r:rare s:steal",
    "rarty:legendary",  # a mistake, explained with a 400 or a message: still not a 5xx
]
SEARCHES = ["rarity", "редкость", "skills", "энергия", "match", "shield"]
MAX_REQUESTS_PER_USER = 20_000


@dataclass
class Pool:
    """GET targets found by following links from the home pages."""

    pages: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    what_ifs: list[str] = field(default_factory=list)
    statics: list[str] = field(default_factory=list)
    play: str | None = None


def discover(port: int) -> Pool:
    pool = Pool()

    def html(path: str) -> str:
        status, _, body = fetch(port, path)
        return body.decode("utf-8", errors="replace") if status == 200 else ""

    for lang in ("en", "ru"):
        home = html(f"/{lang}/")
        found = links(home)
        pool.statics += [p for p in found if p.startswith("/static/")]
        pool.pages.append(f"/{lang}/")
        wiki = html(f"/{lang}/wiki/")
        if wiki:
            pool.pages.append(f"/{lang}/wiki/")
            pool.pages += sorted(
                {p for p in links(wiki) if re.fullmatch(rf"/{lang}/wiki/[\w-]+/", p)}
            )[:12]
            pool.pages += [f"/{lang}/wiki/search/?q={quote(q)}" for q in SEARCHES]
        listing = html(f"/{lang}/cards/")
        if listing:
            pool.pages += [f"/{lang}/cards/?q={quote(q)}" for q in QUERIES]
            cards = sorted({p for p in links(listing) if re.fullmatch(rf"/{lang}/cards/\d+/", p)})
            pool.cards += cards[:15]
            for card in cards[:6]:
                pool.what_ifs += what_ifs(card, html(card))[:3]
        if html(f"/{lang}/play/") and lang == "en":
            pool.play = f"/{lang}/play/"
    for card in pool.cards[:10]:
        token = card.strip("/").split("/")[-1]
        pool.pages.append(f"/api/cards/{token}")
    pool.pages += [f"/api/cards?q={quote(q)}" for q in QUERIES[:4]]
    # Keep only what exists (a page not built yet is left out); a 400 for a bad query stays.
    pool.pages = [p for p in dict.fromkeys(pool.pages) if fetch(port, p)[0] != 404]
    pool.statics = list(dict.fromkeys(pool.statics))
    return pool


# --- the virtual users ------------------------------------------------------------------------


@dataclass
class UserResult:
    stats: Stats = field(default_factory=Stats)
    errors: list[str] = field(default_factory=list)
    # match URL → the moves the server accepted, in order (the "move" button values)
    accepted: dict[str, list[str]] = field(default_factory=dict)
    rejected: Counter = field(default_factory=Counter)
    double_accepted: list[str] = field(default_factory=list)
    matches_started: int = 0
    matches_finished: int = 0


class User(threading.Thread):
    def __init__(self, index: int, port: int, pool: Pool, deadline: float, plays: bool) -> None:
        super().__init__(daemon=True)
        self.rng = random.Random(index)
        self.session = Session(port)
        self.pool = pool
        self.deadline = deadline
        self.plays = plays and pool.play is not None
        self.result = UserResult()
        self.match_url: str | None = None
        self.match_forms: list[Form] = []
        self.turn_seen = -1

    def timed(self, method, path, data=None, headers=None):
        started = time.perf_counter()
        try:
            status, response_headers, body = self.session.request(method, path, data, headers)
        except OSError as exc:
            self.result.stats.errors[type(exc).__name__] += 1
            self.session.close()
            return None, {}, ""
        self.result.stats.latencies.append(time.perf_counter() - started)
        self.result.stats.statuses[status] += 1
        if status >= 500:
            self.result.errors.append(f"{status} {method} {path} {data or ''}")
        return status, response_headers, body

    def browse(self) -> None:
        r = self.rng.random()
        if r < 0.1 and self.pool.statics:
            self.timed("GET", self.rng.choice(self.pool.statics))
        elif r < 0.25 and self.pool.what_ifs:
            self.timed("GET", self.rng.choice(self.pool.what_ifs), headers={"HX-Request": "true"})
        elif r < 0.5 and self.pool.cards:
            self.timed("GET", self.rng.choice(self.pool.cards))
        else:
            self.timed("GET", self.rng.choice(self.pool.pages))

    # The match demo: start a match from the play page, then post actions on the match page
    # the way htmx does. The form's hidden "turn" says which turn the page was made for; an
    # accepted action moves it on (or ends the match), a refused one leaves it.
    def start_match(self) -> None:
        status, _, body = self.timed("GET", self.pool.play)
        if status != 200:
            return
        _, forms = parse_page(self.pool.play, body)
        # A form that starts a match posts a deck: some fields besides the CSRF token.
        starts = [f for f in forms if any(k != "csrfmiddlewaretoken" for k, _ in f.fields)]
        if not starts:
            self.plays = False  # nothing to post yet: this user browses instead
            return
        form = starts[-1]  # the suggested deck (always there); a built deck comes first
        status, headers, body = self.timed("POST", urlsplit(form.action).path, form.data())
        if status not in (301, 302, 303) or not headers.get("location"):
            self.result.rejected[f"start {status}"] += 1
            return
        self.match_url = urlsplit(headers["location"]).path
        self.turn_seen = -1
        status, _, body = self.timed("GET", self.match_url)
        if status == 200:
            self.result.matches_started += 1
            self.result.accepted.setdefault(self.match_url, [])
            self.match_forms = self.action_forms(body)
        else:
            self.match_url = None

    def action_forms(self, html: str) -> list[Form]:
        _, forms = parse_page(self.match_url or "", html)
        return [f for f in forms if f.buttons and "turn" in dict(f.fields)]

    def choose(self, form: Form) -> list[tuple[str, str]]:
        # Surrender ends a match early: keep it rare so matches run for a while.
        buttons = [i for i, (_, v) in enumerate(form.buttons) if v != "surrender"]
        if not buttons or self.rng.random() < 0.01:
            buttons = list(range(len(form.buttons)))
        return form.data(self.rng.choice(buttons))

    def post_action(self, form: Form, data: list[tuple[str, str]]) -> tuple[bool, list[Form]]:
        """Post one action; (accepted, the forms on the page afterwards)."""
        headers = {"HX-Request": "true"} if form.htmx else {}
        status, response_headers, body = self.timed(
            "POST", urlsplit(form.action).path, data, headers
        )
        if status is None:
            return False, []
        if status in (301, 302, 303):
            location = urlsplit(response_headers.get("location", self.match_url)).path
            status, _, body = self.timed("GET", location)
        if status != 200:
            self.result.rejected[f"action {status}"] += 1
            return False, []
        forms = self.action_forms(body)
        # Compare with the turn of the page as it stood before this post (for a resubmit of
        # an old form that is newer than the form's own turn).
        before = max(int(dict(form.fields)["turn"]), self.turn_seen)
        after = int(dict(forms[0].fields)["turn"]) if forms else None
        accepted = after is None or after > before
        if after is not None:
            self.turn_seen = after
        return accepted, forms

    def act(self) -> None:
        if not self.match_forms:
            if self.match_url:
                self.result.matches_finished += 1
            self.match_url = None
            self.start_match()
            return
        form = self.match_forms[0]
        data = self.choose(form)
        accepted, forms = self.post_action(form, data)
        move = dict(data).get("move", "")
        if accepted:
            self.result.accepted[self.match_url].append(move)
            # Now and then the same form again, as a double click or a stale tab would:
            # it must be refused and change nothing.
            if forms and self.rng.random() < 0.05:
                again, forms_after = self.post_action(form, data)
                if again:
                    self.result.double_accepted.append(f"{self.match_url} {move}")
                    self.result.accepted[self.match_url].append(move)
                else:
                    self.result.rejected["stale resubmit (expected)"] += 1
                forms = forms_after or forms
        else:
            self.result.rejected["refused action"] += 1
            if not forms:
                status, _, body = self.timed("GET", self.match_url)
                forms = self.action_forms(body) if status == 200 else []
        self.match_forms = forms

    def run(self) -> None:
        try:
            for _ in range(MAX_REQUESTS_PER_USER):
                if time.monotonic() >= self.deadline:
                    break
                if self.plays and self.rng.random() < 0.7:
                    self.act()
                else:
                    self.browse()
        finally:
            self.session.close()


# --- checking the stored match logs -------------------------------------------------------------

VERIFY_SCRIPT = r"""
import json, sys
import django
django.setup()
claims = json.load(sys.stdin)
try:
    from engine.serialize import action_to_json
    from play.models import Match
    from play.forms import parse_move
except ImportError as exc:
    print(json.dumps({"status": "n/a", "reason": f"cannot read matches: {exc}"}))
    raise SystemExit
out = {}
for url, moves in claims.items():
    public_id = url.rstrip("/").split("/")[-1]
    match = Match.objects.filter(public_id=public_id).first()
    if match is None:
        out[url] = {"stored": None, "expected": len(moves), "same": False}
        continue
    stored = [a for a in match.actions if a.get("side") == "a"]
    expected = [action_to_json(parse_move(m)) for m in moves]
    out[url] = {"stored": len(stored), "expected": len(expected), "same": stored == expected}
print(json.dumps({"status": "ok", "matches": out}))
"""


def verify(env: dict[str, str], accepted: dict[str, list[str]]) -> tuple[str, list[str]]:
    """Every accepted move must be in its match's stored log, in order, and nothing else:
    the player's stored actions must equal the accepted moves exactly."""
    if not any(accepted.values()):
        return "n/a (no action was accepted)", []
    result = subprocess.run(
        [PYTHON, "-c", VERIFY_SCRIPT],
        cwd=ROOT,
        env=env,
        input=json.dumps(accepted),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        return f"could not check: {result.stderr.strip().splitlines()[-1:]}", ["check failed"]
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    if answer["status"] != "ok":
        return f"n/a ({answer['reason']})", []
    lost = [
        f"{url}: {r['expected']} accepted, {r['stored']} stored"
        + ("" if r["stored"] != r["expected"] else ", in a different order")
        for url, r in answer["matches"].items()
        if not r["same"]
    ]
    total = sum(len(m) for m in accepted.values())
    return f"{len(accepted)} matches, {total} accepted actions compared with the stored logs", lost


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--users", type=int, default=32, help="concurrent connections")
    parser.add_argument("--players", type=int, default=16, help="users who play matches")
    parser.add_argument("--database", type=Path, default=ROOT / "db.sqlite3")
    args = parser.parse_args(argv)
    if not args.database.exists():
        print(f"{args.database} does not exist: run `make install` first.", file=sys.stderr)
        return 2
    with temp_dir("codex-load-") as tmp_name:
        tmp = Path(tmp_name)
        _db, env, notes = server_copy(args.database, tmp, "load.sqlite3")
        for note in notes:
            print(f"({note})", flush=True)
        with gunicorn(env, tmp / "server.log", workers=2, threads=8) as server:
            pool = discover(server.port)
            print(
                f"Pool: {len(pool.pages)} pages, {len(pool.cards)} card pages, "
                f"{len(pool.what_ifs)} what-ifs, {len(pool.statics)} static files, "
                f"match demo: {pool.play or 'not there yet'}",
                flush=True,
            )
            if not pool.pages:
                print("Nothing to load: no page answered.", file=sys.stderr)
                return 1
            deadline = time.monotonic() + args.duration
            users = [
                User(
                    i,
                    server.port,
                    pool,
                    deadline,
                    plays=i % max(1, args.users // args.players) == 0,
                )
                for i in range(args.users)
            ]
            started = time.monotonic()
            for u in users:
                u.start()
            for u in users:
                u.join(timeout=args.duration + 120)
            elapsed = time.monotonic() - started
            log = server.log_text()
            (ROOT / "bench" / "results").mkdir(exist_ok=True)
            (ROOT / "bench" / "results" / "load-server.log").write_text(log)
        stats = Stats(elapsed=elapsed)
        accepted: dict[str, list[str]] = {}
        double_accepted: list[str] = []
        errors: list[str] = []
        rejected: Counter = Counter()
        started_matches = finished = 0
        for u in users:
            stats.merge(u.result.stats)
            errors += u.result.errors
            rejected.update(u.result.rejected)
            started_matches += u.result.matches_started
            finished += u.result.matches_finished
            double_accepted += u.result.double_accepted
            for match, moves in u.result.accepted.items():
                accepted.setdefault(match, []).extend(moves)
        locked = log.count("database is locked")
        server_errors_logged = log.count("Internal Server Error")
        checked, lost = verify(env, accepted)

    players = sum(1 for u in users if u.plays)
    print()
    print(f"Load: {args.users} connections for {elapsed:.1f} s ({players} playing matches)")
    print(f"- requests: {stats.count:,} ({stats.rps:,.0f} req/s)")
    print(
        f"- latency: p50 {stats.percentile(50) * 1e3:.1f} ms, "
        f"p99 {stats.percentile(99) * 1e3:.1f} ms"
    )
    print(f"- statuses: {dict(sorted(stats.statuses.items()))}")
    if stats.errors:
        print(f"- connection errors: {dict(stats.errors)}")
    print(f"- 5xx: {stats.server_errors}")
    print(
        f"- 'database is locked' in the server log: {locked} (server errors logged: {server_errors_logged})"
    )
    if pool.play is None or not players:
        print("- match demo: no match form on the play page yet (GET traffic only)")
    else:
        print(
            f"- matches: {started_matches} started, {finished} finished, "
            f"{sum(len(m) for m in accepted.values())} actions accepted; "
            f"refused: {dict(rejected)}"
        )
        print(f"- lost actions: {len(lost)} ({checked})")
        print(f"- double submits accepted: {len(double_accepted)}")
    for line in errors[:5] + lost[:5]:
        print(f"  {line}")
    failed = (
        stats.server_errors
        or server_errors_logged
        or locked
        or lost
        or double_accepted
        or stats.count == 0
    )
    print("RESULT:", "FAIL" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
