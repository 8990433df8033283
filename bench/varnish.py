"""varnishd in front of a local server, with the shipped VCL (docs/varnish/default.vcl):
for `make bench` (Varnish hits against gunicorn) and the tests of the shared HTTP cache.

Debian's `varnish` package (scripts/ensure-test-tools.sh installs it as root); `binary()`
is None without it, and callers skip saying so.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VCL = ROOT / "docs" / "varnish" / "default.vcl"
HOST = "127.0.0.1"
MISSING = "varnishd is not installed (apt-get install varnish; `make test-tools` as root)"


def binary() -> str | None:
    found = shutil.which("varnishd")
    if found is None and os.access("/usr/sbin/varnishd", os.X_OK):
        found = "/usr/sbin/varnishd"
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def vcl_for(backend_port: int, backend_host: str = HOST) -> str:
    """The shipped VCL with its backend pointed at ``backend_host:backend_port``."""
    text = VCL.read_text()
    shipped = '.host = "127.0.0.1";\n    .port = "8000";'
    if shipped not in text:
        raise RuntimeError(f"{VCL}: its backend is no longer {shipped!r}")
    return text.replace(shipped, f'.host = "{backend_host}";\n    .port = "{backend_port}";')


@dataclass
class Varnish:
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


@contextmanager
def varnishd(backend_port: int, workdir: Path, memory: str = "64m") -> Iterator[Varnish]:
    """varnishd on a free loopback port in front of ``backend_port``; stopped whatever
    happens. Runs in the foreground (``-F``) without a jail (``-j none``), so neither
    root's privilege drop nor the package's service is involved."""
    found = binary()
    if found is None:
        raise FileNotFoundError(MISSING)
    workdir.mkdir(parents=True, exist_ok=True)
    vcl = workdir / "default.vcl"
    vcl.write_text(vcl_for(backend_port))
    port = _free_port()
    log_path = workdir / "varnishd.log"
    log = log_path.open("w")
    cmd = [
        found, "-F", "-j", "none", "-n", str(workdir / "instance"),
        "-a", f"{HOST}:{port}", "-f", str(vcl), "-s", f"malloc,{memory}",
        "-p", "ban_lurker_sleep=0.05",
    ]  # fmt: skip
    process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    server = Varnish(port=port, process=process, log_path=log_path)
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"varnishd exited at start-up:\n{server.log_text()[-3000:]}")
            try:
                socket.create_connection((HOST, port), timeout=0.2).close()
                break
            except OSError as error:
                if time.monotonic() > deadline:
                    log = server.log_text()[-3000:]
                    raise RuntimeError(f"varnishd did not start:\n{log}") from error
                time.sleep(0.1)
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


# --- `make bench`: the same pages from gunicorn and from Varnish, side by side ---------------


def _counters(workdir: Path) -> dict[str, int]:
    """Varnish's hit and miss counters (varnishstat), or {} when it cannot say."""
    found = shutil.which("varnishstat") or "/usr/bin/varnishstat"
    try:
        out = subprocess.run(
            [found, "-n", str(workdir / "instance"), "-1", "-f", "MAIN.cache_hit",
             "-f", "MAIN.cache_miss", "-f", "MAIN.cache_hitmiss", "-f", "MAIN.s_pass"],
            capture_output=True, text=True, timeout=10, check=False,
        ).stdout  # fmt: skip
    except OSError:
        return {}
    counters = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].isascii() and parts[1].isdigit():
            counters[parts[0].removeprefix("MAIN.")] = int(parts[1])
    return counters


def side_by_side(
    backend_port: int,
    pages: list[tuple[str, object]],
    concurrency: int,
    duration: float,
    workdir: Path,
) -> list[str]:
    """A table: each page's requests per second from gunicorn directly and through Varnish
    (after one warm-up request, so every measured request through Varnish may be a hit),
    and how many of Varnish's answers were hits. The load generator is this Python process
    (bench.harness.hammer): through Varnish it, not the cache, is the limit."""
    from bench.harness import fetch, hammer

    if binary() is None:
        return [f"- skipped: {MISSING}"]
    lines = [
        "| page | gunicorn req/s | p50 ms | Varnish req/s | p50 ms | × | Varnish hits |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    with varnishd(backend_port, workdir) as cache:
        for label, request in pages:
            path, headers = request.path, dict(request.headers)  # type: ignore[attr-defined]
            fetch(cache.port, path, headers=headers)  # the miss that fills the cache
            direct = hammer(backend_port, lambda i, r=request: r, concurrency, duration, 200_000)
            before = _counters(workdir)
            cached = hammer(cache.port, lambda i, r=request: r, concurrency, duration, 200_000)
            time.sleep(1.0)  # Varnish's workers add their counts to the totals when idle
            after = _counters(workdir)
            hits = after.get("cache_hit", 0) - before.get("cache_hit", 0)
            hit_note = f"{hits:,} of {cached.count:,}" if after else "n/a (varnishstat)"
            ratio = cached.rps / direct.rps if direct.rps else float("nan")
            lines.append(
                f"| {label} | {direct.rps:,.0f} | {direct.percentile(50) * 1000:.1f} "
                f"| {cached.rps:,.0f} | {cached.percentile(50) * 1000:.1f} | {ratio:.1f} "
                f"| {hit_note} |"
            )
    return lines
