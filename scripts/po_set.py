#!/usr/bin/env python
"""Fill Russian translations from a JSON object {msgid: msgstr} (developer helper).

Usage: .venv/bin/python scripts/po_set.py translations.json   (or - for stdin)
Clears the fuzzy flag of every entry it sets and prints what is still untranslated.
For plural entries give a list of the four Russian forms. An entry with a context
(pgettext) is looked up as "context::msgid" first, then as plain "msgid".
"""

import json
import sys
from pathlib import Path

import polib

PO = Path(__file__).resolve().parent.parent / "locale" / "ru" / "LC_MESSAGES" / "django.po"


def main() -> int:
    if sys.argv[1:] in ([], ["-"]):
        pairs = json.load(sys.stdin)
    else:
        pairs = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    catalogue = polib.pofile(str(PO), wrapwidth=79)
    for entry in catalogue:
        key = f"{entry.msgctxt}::{entry.msgid}" if entry.msgctxt else entry.msgid
        if key not in pairs:
            key = entry.msgid
        if key not in pairs:
            continue
        value = pairs[key]
        if entry.msgid_plural:
            entry.msgstr_plural = dict(enumerate(value))
        else:
            entry.msgstr = value
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
        # Drop msgmerge's "#|" notes of the previous msgid: stale once translated.
        entry.previous_msgctxt = entry.previous_msgid = entry.previous_msgid_plural = None
    catalogue.save()
    left = [e.msgid for e in catalogue.untranslated_entries() + catalogue.fuzzy_entries()]
    print(f"{len(left)} entries still need a translation" + (":" if left else "."))
    for msgid in left:
        print("  ", json.dumps(msgid, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
