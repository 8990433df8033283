"""Bulk data: the whole collection as one JSON file in the import schema, made once per
collection version and served from disk.

``cards.transfer.export_collection`` writes the file (the same bytes ``manage.py
export_collection`` writes, so it imports back as it is). It is written the first time
it is asked for after the collection changed — to a private temporary file, renamed
into place when complete — and then streamed from disk to every client. A `BulkFile`
row records which file holds which content version: its ETag names the version and
the file, and Last-Modified is when it was written, the same for every server process.
Readers never see a half-written file. One process writes at a time: it holds an
advisory ``fcntl`` lock on ``writing.lock``, which the kernel releases when the process
dies, so a writer that crashed or was killed leaves nothing to clean up. A request that
finds another one writing waits a few seconds (``WAIT_SECONDS``) for its file, then gets
``BulkUnavailable`` (the API's JSON 503, "try again"): no request is held longer, and a
writer that hangs never stalls the server. A directory that is full, read-only or missing
is ``BulkUnavailable`` too.

The files live in ``settings.BULK_DATA_DIR`` (default: ``card-codex-bulk`` in the
system's temporary directory); the two newest are kept.
"""

from __future__ import annotations

import fcntl
import os
import secrets
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction

from cards.transfer import export_collection
from core import versions

from .models import BulkFile

__all__ = [
    "Bulk",
    "BulkUnavailable",
    "bulk_dir",
    "current_file",
    "etag_of",
    "known_etag",
    "version_key",
]

WAIT_SECONDS = 5.0  # how long a request waits for another process's writing
RETRY_AFTER_SECONDS = 10  # what the 503 asks a client to wait before trying again
KEEP = 2  # files kept on disk


class BulkUnavailable(Exception):
    """The file cannot be had now: another process is still writing it (``busy``), or the
    directory refused the write (full, read-only, missing: an ``OSError``)."""

    def __init__(self, reason: str, *, busy: bool = False) -> None:
        super().__init__(reason)
        self.busy = busy


@dataclass(frozen=True, slots=True)
class Bulk:
    path: Path
    version: str
    etag: str
    size: int
    modified: float  # seconds since the epoch


def bulk_dir() -> Path:
    configured = getattr(settings, "BULK_DATA_DIR", None)
    return Path(configured) if configured else Path(tempfile.gettempdir()) / "card-codex-bulk"


def version_key() -> str:
    """The collection's content version, as the file's record carries it."""
    return versions.current("cards")


def etag_of(row: BulkFile) -> str:
    return f'"{row.name.removesuffix(".json")}"'


def known_etag() -> str | None:
    """The ETag of the file of the current version, if it was written already (one query)."""
    row = BulkFile.objects.filter(version=version_key()).first()
    return etag_of(row) if row is not None and (bulk_dir() / row.name).exists() else None


def current_file() -> Bulk:
    """The file of the collection as it is now, written first if it does not exist yet.
    ``BulkUnavailable`` when another process is writing it, or the disk refuses."""
    version = version_key()
    row = BulkFile.objects.filter(version=version).first()
    try:
        if row is None or not (bulk_dir() / row.name).exists():
            row = _write(version)
        path = bulk_dir() / row.name
    except OSError as error:
        raise BulkUnavailable(f"{type(error).__name__}: {error}") from error
    return Bulk(path, version, etag_of(row), row.size, row.created.timestamp())


def _try_lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _write(version: str) -> BulkFile:
    folder = bulk_dir()
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / "writing.lock", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        while not _try_lock(fd):
            # Another live process writes (a dead one's lock is gone): wait for its file.
            row = _recorded(version)
            if row is not None:
                return row
            if time.monotonic() >= deadline:
                raise BulkUnavailable("another process is writing the file", busy=True)
            time.sleep(0.1)
        row = _recorded(version)  # written while we waited for the lock
        if row is not None:
            return row
        return _export(folder, version)
    finally:
        os.close(fd)  # releases the lock


def _recorded(version: str) -> BulkFile | None:
    row = BulkFile.objects.filter(version=version).first()
    return row if row is not None and (bulk_dir() / row.name).exists() else None


def _export(folder: Path, version: str) -> BulkFile:
    name = f"cards-{version.replace(':', '-')}-{secrets.token_hex(6)}.json"
    path = folder / name
    partial = folder / f"{name}.part"
    try:
        with open(partial, "w", encoding="utf-8") as out:
            export_collection(out)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    try:
        with transaction.atomic():
            BulkFile.objects.filter(version=version).delete()  # its file is gone
            row = BulkFile.objects.create(version=version, name=name, size=path.stat().st_size)
    except IntegrityError:  # another process recorded its own file first: use that one
        path.unlink(missing_ok=True)
        row = BulkFile.objects.get(version=version)
    _prune(folder)
    return row


def _prune(folder: Path) -> None:
    kept = list(BulkFile.objects.order_by("-created", "-id")[:KEEP])
    BulkFile.objects.exclude(pk__in=[row.pk for row in kept]).delete()
    names = {row.name for row in kept}
    for path in folder.glob("cards-*.json"):
        if path.name not in names:
            path.unlink(missing_ok=True)
