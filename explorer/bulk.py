"""Bulk data: the whole collection as one JSON file in the import schema, made once per
collection version and served from disk.

``cards.transfer.export_collection`` writes the file (the same bytes ``manage.py
export_collection`` writes, so it imports back as it is). It is written the first time
it is asked for after the collection changed — to a private temporary file, renamed
into place when complete — and then streamed from disk to every client. A `BulkFile`
row records which file holds which content version: its ETag names the version and
the file, and Last-Modified is when it was written, the same for every server process.
Readers never see a half-written file; a request that finds another one writing waits
for it instead of writing again.

The files live in ``settings.BULK_DATA_DIR`` (default: ``card-codex-bulk`` in the
system's temporary directory); the two newest are kept.
"""

from __future__ import annotations

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

__all__ = ["Bulk", "bulk_dir", "current_file", "etag_of", "known_etag", "version_key"]

LOCK_STALE_SECONDS = 600  # a lock older than this was left by a writer that died
WAIT_SECONDS = 300  # how long a request waits for another one's writing
KEEP = 2  # files kept on disk


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
    """The file of the collection as it is now, written first if it does not exist yet."""
    version = version_key()
    row = BulkFile.objects.filter(version=version).first()
    if row is None or not (bulk_dir() / row.name).exists():
        row = _write(version)
    path = bulk_dir() / row.name
    return Bulk(path, version, etag_of(row), row.size, row.created.timestamp())


def _write(version: str) -> BulkFile:
    folder = bulk_dir()
    folder.mkdir(parents=True, exist_ok=True)
    lock = folder / f"writing-{secrets.token_hex(4)}.lock"
    shared_lock = folder / "writing.lock"
    try:
        fd = os.open(shared_lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        os.close(fd)
        lock = shared_lock
    except FileExistsError:
        row = _wait_for(version, shared_lock)
        if row is not None:
            return row
    try:
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
    finally:
        lock.unlink(missing_ok=True)


def _wait_for(version: str, lock: Path) -> BulkFile | None:
    """Wait while another request writes; its record, or None to write ourselves."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        row = BulkFile.objects.filter(version=version).first()
        if row is not None and (bulk_dir() / row.name).exists():
            return row
        try:
            if time.time() - lock.stat().st_mtime > LOCK_STALE_SECONDS:
                lock.unlink(missing_ok=True)
                return None
        except FileNotFoundError:
            return None
        time.sleep(0.2)
    return None


def _prune(folder: Path) -> None:
    kept = list(BulkFile.objects.order_by("-created", "-id")[:KEEP])
    BulkFile.objects.exclude(pk__in=[row.pk for row in kept]).delete()
    names = {row.name for row in kept}
    for path in folder.glob("cards-*.json"):
        if path.name not in names:
            path.unlink(missing_ok=True)
