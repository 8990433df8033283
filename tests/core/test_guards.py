"""Project guards: migrations, the Russian catalogue, deploy checks."""

import os
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)
RU_PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
# Where user-facing strings live (the engine has none: it speaks in trace codes).
SOURCE_DIRS = [
    *("config", "codex_site", "core", "cards"),
    *("wiki", "explorer", "play", "packs", "arena", "sharing", "templates"),
]


@pytest.mark.django_db
def test_no_pending_migrations():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:
        pytest.fail(f"Models changed without a migration:\n{out.getvalue()}")


def test_russian_catalogue_has_no_untranslated_or_fuzzy_entries():
    catalogue = polib.pofile(str(RU_PO))
    untranslated = [e.msgid for e in catalogue.untranslated_entries()]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    assert not untranslated, f"Untranslated: {untranslated}"
    assert not fuzzy, f"Fuzzy: {fuzzy}"
    assert not catalogue.metadata_is_fuzzy


def test_russian_catalogue_covers_every_string_in_the_code(tmp_path, settings):
    """Extract the strings afresh and check each one has a Russian translation."""
    if shutil.which("xgettext") is None:
        pytest.skip("GNU gettext (xgettext) is not installed: `apt-get install gettext`.")
    # makemessages writes beside the sources it scans, so scan a mirror of symlinks.
    for name in SOURCE_DIRS:
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
        if (e.msgctxt, e.msgid) not in ours or not ours[(e.msgctxt, e.msgid)].translated()
    ]
    assert not missing, f"Run `make messages` and translate: {missing}"


def test_check_deploy_passes_under_prod_settings(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "DJANGO_SECRET_KEY": "x" * 20 + "a-long-random-production-secret-key-for-the-check",
        "DJANGO_ALLOWED_HOSTS": "cards.example.org",
        "DATABASE_URL": "postgres://codex:secret@127.0.0.1:5432/codex",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_prod_settings_refuse_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.prod"
    env["DJANGO_ALLOWED_HOSTS"] = "cards.example.org"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_ruff_lint_and_format_are_clean():
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.exists():
        pytest.skip("ruff is not installed in this environment.")
    for args in (["check", "--quiet", "."], ["format", "--check", "--quiet", "."]):
        result = subprocess.run(
            [str(ruff), *args], cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, f"ruff {' '.join(args)}:\n{result.stdout}{result.stderr}"


def test_every_rules_document_the_code_cites_is_in_the_repository():
    """A docstring or comment that sends the reader to a capitalised markdown file or to one
    under ``docs/`` names a file the repository holds (the rules live in docs/rules.md; the
    shared spec's capitalised rules file is not in the repository)."""
    import re

    cited = re.compile(r"(?<![\w./-])((?:docs/)?[A-Za-z_]+\.md)\b")
    missing = []
    for folder in [*SOURCE_DIRS, "engine", "tests", "scripts", "bench"]:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for name in cited.findall(path.read_text(encoding="utf-8")):
                if not (name.startswith("docs/") or name.split(".")[0].isupper()):
                    continue
                if not (ROOT / name).is_file():
                    missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, "cited documents the repository does not hold:\n" + "\n".join(missing)
