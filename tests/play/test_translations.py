"""Every string of the play app has a Russian translation (the project guard in
tests/core/test_guards.py scans templates/ but not play/)."""

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


def test_every_play_string_is_translated(tmp_path, settings):
    if shutil.which("xgettext") is None:
        pytest.skip("GNU gettext (xgettext) is not installed: `apt-get install gettext`.")
    for name in ("play", "templates"):
        (tmp_path / name).symlink_to(ROOT / name)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        call_command("makemessages", locale=["ru"], symlinks=True, verbosity=0)
    finally:
        os.chdir(cwd)
    fresh = polib.pofile(str(tmp_path / "locale" / "ru" / "LC_MESSAGES" / "django.po"))
    ours = {(e.msgctxt, e.msgid): e for e in polib.pofile(str(RU_PO))}
    missing = [
        e.msgid
        for e in fresh
        if any(o[0].startswith(("play/", "templates/play/")) for o in e.occurrences)
        and (
            (e.msgctxt, e.msgid) not in ours
            or not ours[(e.msgctxt, e.msgid)].translated()
            or ours[(e.msgctxt, e.msgid)].fuzzy
        )
    ]
    assert len([e for e in fresh if any(o[0].startswith("play/") for o in e.occurrences)]) > 100
    assert not missing, f"Run `make messages` and translate: {missing}"
