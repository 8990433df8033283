"""Every translatable string of the arena app (Python and templates) has its Russian
translation (tests/core/test_guards.py scans the other apps)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)
RU_PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"


def test_the_arena_strings_are_translated(tmp_path, settings) -> None:
    if shutil.which("xgettext") is None:
        pytest.skip("GNU gettext (xgettext) is not installed: `apt-get install gettext`.")
    (tmp_path / "arena").symlink_to(ROOT / "arena")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "arena").symlink_to(ROOT / "templates" / "arena")
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        call_command("makemessages", locale=["ru"], symlinks=True, verbosity=0)
    finally:
        os.chdir(cwd)
    fresh = polib.pofile(str(tmp_path / "locale" / "ru" / "LC_MESSAGES" / "django.po"))
    ours = {(e.msgctxt, e.msgid): e for e in polib.pofile(str(RU_PO))}
    assert len(fresh) > 100
    missing = [
        e.msgid
        for e in fresh
        if (e.msgctxt, e.msgid) not in ours or not ours[(e.msgctxt, e.msgid)].translated()
    ]
    assert not missing, f"Run `make messages` and translate: {missing}"
