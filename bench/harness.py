"""Shared machinery for `make bench` and `make load`: a gunicorn server on loopback and a
small, bounded HTTP load generator.

Everything here talks to 127.0.0.1 only. Every loop is bounded by a deadline and a request
count, and the server is always stopped (SIGTERM, then SIGKILL) when the block exits.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HOST = "127.0.0.1"
BENCH_SETTINGS = "config.settings.bench"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy of a live SQLite database, WAL contents included."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


@contextmanager
def django_on_a_copy(source: Path, prefix: str, *, in_place: bool = False) -> Iterator[Path]:
    """Django set up in this process with the bench settings, on a migrated copy of the
    SQLite database ``source`` (or on ``source`` itself, ``in_place``), for the in-process
    scripts; the copy is gone on leaving. Yields the database's path."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        db = source
        if not in_place:
            db = Path(folder) / "bench.sqlite3"
            copy_sqlite(source, db)
        os.environ["DJANGO_SETTINGS_MODULE"] = BENCH_SETTINGS
        os.environ["BENCH_SQLITE_PATH"] = str(db)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        yield db


def django_env(db_path: Path | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["DJANGO_SETTINGS_MODULE"] = BENCH_SETTINGS
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if db_path is not None:
        env["BENCH_SQLITE_PATH"] = str(db_path)
    env.update(extra)
    return env


def manage(args: list[str], env: dict[str, str], timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def server_copy(
    source: Path, tmp: Path, name: str = "bench.sqlite3"
) -> tuple[Path, dict[str, str], list[str]]:
    """A prepared copy of the database ``source`` in ``tmp`` (see ``prepare_copy``): its
    path, the environment of a server on it, and the notes of the preparation."""
    db = tmp / name
    env = django_env(db)
    return db, env, prepare_copy(source, db, env)


def prepare_copy(source: Path, target: Path, env: dict[str, str]) -> list[str]:
    """Copy the demo database, bring the copy's schema up to date and fill what is missing
    (`load_demo` leaves loaded content alone), and collect the static files.
    Returns notes on what had to be done."""
    notes = []
    copy_sqlite(source, target)
    for args in (["migrate", "--noinput"], ["load_demo"]):
        started = time.monotonic()
        result = manage(args, env, timeout=600)
        if result.returncode != 0:
            tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
            raise RuntimeError(f"manage.py {' '.join(args)} failed on the copy: {tail}")
        took = time.monotonic() - started
        if took > 5:
            notes.append(f"{args[0]} on the database copy took {took:.0f} s")
    # Cheap when nothing changed, and a missing manifest entry would be a 500 under load.
    result = manage(["collectstatic", "--noinput", "--verbosity", "0"], env, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"collectstatic failed: {result.stderr.strip().splitlines()[-3:]}")
    return notes


def has_command(name: str, env: dict[str, str]) -> bool:
    """Whether `manage.py NAME` exists, asked without running it."""
    result = manage(["help", name], env, timeout=60)
    return result.returncode == 0


@dataclass
class Server:
    port: int
    process: subprocess.Popen
    log_path: Path

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def cpu_seconds(self) -> float | None:
        """User + system CPU time so far of the server's processes (its session: the
        master and its workers), from Linux's /proc; None elsewhere. The difference over a
        measurement is what the server itself spent, whatever the client and the rest of
        the machine were doing."""
        proc = Path("/proc")
        if not proc.is_dir():
            return None
        ticks = 0
        for entry in proc.iterdir():
            if not (entry.name.isascii() and entry.name.isdigit()):  # a process's folder
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # a process that just ended
                continue
            if int(fields[3]) == self.process.pid:  # its session id (start_new_session)
                ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")


@contextmanager
def gunicorn(
    env: dict[str, str],
    log_path: Path,
    workers: int = 2,
    threads: int = 4,
    startup_timeout: float = 60.0,
) -> Iterator[Server]:
    """gunicorn on 127.0.0.1 with a free port; stopped whatever happens."""
    port = free_port()
    gunicorn_bin = Path(PYTHON).with_name("gunicorn")
    cmd = [
        str(gunicorn_bin) if gunicorn_bin.exists() else shutil.which("gunicorn") or "gunicorn",
        "config.wsgi:application",
        "--bind",
        f"{HOST}:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "gthread",
        "--threads",
        str(threads),
        "--keep-alive",
        "30",
        "--backlog",
        "256",
        "--timeout",
        "60",
        "--graceful-timeout",
        "5",
        "--log-level",
        "warning",
        "--error-logfile",
        "-",
    ]
    log = log_path.open("w")
    process = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    server = Server(port=port, process=process, log_path=log_path)
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited at start-up:\n{server.log_text()[-3000:]}")
            try:
                status, _, _ = fetch(port, "/healthz", timeout=2)
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"gunicorn did not answer /healthz:\n{server.log_text()[-3000:]}"
                )
            time.sleep(0.2)
        yield server
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        log.close()


def fetch(
    port: int,
    path: str,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
    timeout: float = 10,
) -> tuple[int, dict[str, str], bytes]:
    """One request on a fresh connection (for discovery, not for load)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data
    finally:
        conn.close()


# --- the load generator ---------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    path: str
    method: str = "GET"
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    elapsed: float = 0.0

    def merge(self, other: Stats) -> None:
        self.latencies.extend(other.latencies)
        self.statuses.update(other.statuses)
        self.errors.update(other.errors)

    @property
    def count(self) -> int:
        return len(self.latencies)

    @property
    def rps(self) -> float:
        return self.count / self.elapsed if self.elapsed else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))
        return ordered[index]

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


class Connection:
    """A keep-alive connection that reconnects when the server closes it."""

    def __init__(self, port: int, timeout: float = 30) -> None:
        self.port = port
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes | None
    ) -> tuple[int, http.client.HTTPResponse, bytes]:
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                if response.will_close:
                    self.close()
                return response.status, response, data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A keep-alive connection the server had already closed: retry once, fresh.
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def run_workers(worker: Callable[[Stats], None], concurrency: int, duration: float) -> Stats:
    """Run ``worker`` on ``concurrency`` threads, each with its own Stats (no lock on the
    hot path), and merge them once all are done (a stuck one is given a minute more)."""
    per_thread = [Stats() for _ in range(concurrency)]
    threads = [threading.Thread(target=worker, args=(s,), daemon=True) for s in per_thread]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=duration + 60)
    total = Stats()
    for s in per_thread:
        total.merge(s)
    total.elapsed = time.monotonic() - started
    return total


def hammer(
    port: int,
    requests: Callable[[int], Request],
    concurrency: int,
    duration: float,
    max_requests: int,
) -> Stats:
    """Send requests from `concurrency` keep-alive connections for at most `duration` seconds
    and at most `max_requests` requests in all; `requests(i)` gives the i-th request."""
    counter = iter(range(max_requests))
    lock = threading.Lock()
    deadline = time.monotonic() + duration

    def worker(stats: Stats) -> None:
        connection = Connection(port)
        try:
            while time.monotonic() < deadline:
                with lock:
                    i = next(counter, None)
                if i is None:
                    return
                req = requests(i)
                started = time.perf_counter()
                try:
                    status, _, _ = connection.request(
                        req.method, req.path, dict(req.headers), req.body
                    )
                except OSError as exc:
                    stats.errors[type(exc).__name__] += 1
                    connection.close()
                    continue
                stats.latencies.append(time.perf_counter() - started)
                stats.statuses[status] += 1
        finally:
            connection.close()

    return run_workers(worker, concurrency, duration)


# --- a tiny browser-like session for the load test -----------------------------------------


class Session:
    """One visitor: its own keep-alive connection and cookie jar (session and CSRF)."""

    def __init__(self, port: int) -> None:
        self.connection = Connection(port)
        self.cookies: dict[str, str] = {}
        self.port = port

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, str] | list[tuple[str, str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        all_headers = dict(headers or {})
        body = None
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            body = urlencode(data or {}).encode()
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
            all_headers["Origin"] = f"http://{HOST}:{self.port}"
            all_headers["Referer"] = f"http://{HOST}:{self.port}{path}"
            if "csrftoken" in self.cookies:
                all_headers["X-CSRFToken"] = self.cookies["csrftoken"]
        status, response, raw = self.connection.request(method, path, all_headers, body)
        for header in response.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or morsel.value == "":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        response_headers = {k.lower(): v for k, v in response.getheaders()}
        return status, response_headers, raw.decode("utf-8", errors="replace")

    def close(self) -> None:
        self.connection.close()


HREF = re.compile(r"""(?:href|hx-get|src|action)=["']([^"']+)["']""")


def links(html: str) -> list[str]:
    """Every href/hx-get/src/action in a page, HTML entities for '&' undone."""
    return [m.replace("&amp;", "&") for m in HREF.findall(html)]


WHATIF_FIELD = re.compile(r"""<(?:input|select)\b[^>]*\bname=["']rank["']""")


def what_ifs(card_path: str, html: str) -> list[str]:
    """What-if URLs the card page offers: its "Try it" links (hx-get="?…"), else the what-if
    form (a GET form on the card page) with a changed GetGems rank."""
    found = [card_path + p for p in links(html) if p.startswith("?")]
    if not found and WHATIF_FIELD.search(html):
        found = [f"{card_path}?rank=1"]
    return list(dict.fromkeys(found))


def temp_dir(prefix: str) -> tempfile.TemporaryDirectory:
    return tempfile.TemporaryDirectory(prefix=prefix)
