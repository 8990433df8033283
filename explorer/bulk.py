"""Bulk data: the whole collection as one JSON file in the import schema, made once per
collection version and served from disk.

``cards.transfer.export_collection`` writes the file (the same bytes ``manage.py
export_collection`` writes, so it imports back as it is). It is written the first time
it is asked for after the collection changed — to a temporary file, renamed into place
when complete — and then streamed from disk to every client, with an ETag naming the
collection's content version. Readers never see a half-written file; a concurrent
request waits for the one writing it instead of writing it again.

The files live in ``settings.BULK_DATA_DIR`` (default: ``card-codex-bulk`` in the
system's temporary directory), one per database, the two newest versions kept.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connections, router

from cards.models import Card
from cards.transfer import export_collection
from core import versions

__all__ = ["BulkFile", "bulk_dir", "current_file", "etag_of", "version_key"]

LOCK_STALE_SECONDS = 600  # a lock older than this was left by a writer that died
WAIT_SECONDS = 300  # how long a request waits for another one's writing
KEEP = 2  # versions kept on disk


@dataclass(frozen=True, slots=True)
class BulkFile:
    path: Path
    version: str
    size: int
    modified: float  # seconds since the epoch


def bulk_dir() -> Path:
    configured = getattr(settings, "BULK_DATA_DIR", None)
    return Path(configured) if configured else Path(tempfile.gettempdir()) / "card-codex-bulk"


def _database_key() -> str:
    connection = connections[router.db_for_read(Card)]
    identity = f"{connection.vendor}:{connection.settings_dict.get('NAME')}"
    return hashlib.sha256(identity.encode()).hexdigest()[:12]


def version_key() -> str:
    """The collection's content version, as the file name and the ETag carry it."""
    return versions.current("cards").replace("cards:", "v")


def etag_of(version: str) -> str:
    return f'"cards-{_database_key()}-{version}"'


def _path(version: str) -> Path:
    return bulk_dir() / f"cards-{_database_key()}-{version}.json"


def current_file() -> BulkFile:
    """The file of the collection as it is now, written first if it does not exist yet."""
    version = version_key()
    path = _path(version)
    if not path.exists():
        _write(path)
    stat = path.stat()
    return BulkFile(path, version, stat.st_size, stat.st_mtime)


def _write(path: Path) -> None:
    """Export to a private file, then rename it into place (a change during the export
    bumps the version again, so the next request writes the newer file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = path.with_suffix(".lock")
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        _wait_for(path, lock)
        if path.exists():
            return
        fd = os.open(lock, os.O_CREAT | os.O_WRONLY)
    try:
        os.close(fd)
        partial = path.with_suffix(f".{os.getpid()}.part")
        try:
            with open(partial, "w", encoding="utf-8") as out:
                export_collection(out)
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
        _prune(path.parent)
    finally:
        lock.unlink(missing_ok=True)


def _wait_for(path: Path, lock: Path) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while lock.exists() and not path.exists() and time.monotonic() < deadline:
        try:
            if time.time() - lock.stat().st_mtime > LOCK_STALE_SECONDS:
                lock.unlink(missing_ok=True)
                return
        except FileNotFoundError:
            return
        time.sleep(0.2)


def _prune(folder: Path) -> None:
    mine = sorted(
        folder.glob(f"cards-{_database_key()}-v*.json"),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for old in mine[KEEP:]:
        old.unlink(missing_ok=True)
