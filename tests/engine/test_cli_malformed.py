"""Hostile card input into ``python -m engine derive`` and ``simulate`` (issue 12, item 8):
integers past 2^63 − 1, numbers over 4,300 digits, lone surrogates, NUL and overlong names.
Each is one located line on stderr ("equipped.paw.supply: …") and exit 2, never a
traceback. (The random cases are in tests/fuzz/test_engine_cli_fuzz.py.)
"""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.serialize import MAX_INT, NAME_MAX_LENGTH

ROOT = Path(__file__).resolve().parents[2]

CARD: dict[str, Any] = {
    "token": 7,
    "name": "Pup #7",
    "equipped": {
        "head": {"name": "Cap", "supply": 900},
        "body": {"name": "Chain Armor", "supply": 12},
        "paw": {"name": "Dagger", "supply": 40},
        "background": {"name": "Sky", "supply": 800},
    },
    "combos": [{"name": "Duo", "attributes": [["head", "Cap"]], "rarity": "rare"}],
}
HUGE = "9" * 5000  # past Python's 4,300-digit limit for int() of a string


def card_text(**raw: str) -> str:
    """CARD as JSON text, with some values replaced by raw JSON text (``path=text``;
    ``__`` separates keys and ``_0`` is a list index)."""
    card = copy.deepcopy(CARD)
    marks = {}
    for i, (path, text) in enumerate(raw.items()):
        keys: list[Any] = [int(k[1:]) if k.startswith("_") else k for k in path.split("__")]
        target = card
        for key in keys[:-1]:
            target = target[key]
        mark = f"@@{i}@@"
        target[keys[-1]] = mark
        marks[json.dumps(mark)] = text
    text = json.dumps(card)
    for mark, value in marks.items():
        text = text.replace(mark, value)
    return text


def derive(text: str) -> tuple[int, str, str]:
    """``main(["derive", "-"])`` in-process with ``text`` on stdin."""

    class Stdin:
        buffer = io.BytesIO(text.encode("utf-8", "surrogatepass"))

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = Stdin()  # type: ignore[assignment]
    try:
        with redirect_stderr(err):
            status = main(["derive", "-", "--compact"], out=out)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("raw", "line"),
    [
        ({"token": str(2**63)}, "token: must be at most 9223372036854775807"),
        ({"equipped__paw__supply": str(2**63)}, "equipped.paw.supply: must be at most"),
        ({"equipped__paw__supply": str(2**64 + 5)}, "equipped.paw.supply: must be at most"),
        ({"equipped__paw__supply": HUGE}, "equipped.paw.supply: must be at most"),
        ({"equipped__paw__supply": "-" + HUGE}, "equipped.paw.supply: must be an integer ≥ 1"),
        ({"getgems_rank": HUGE}, "getgems_rank: must be at most"),
        ({"burned_stickers": HUGE + ".5"}, "burned_stickers: must be an integer ≥ 0"),
        ({"name": HUGE}, "name: must be a non-empty string"),
        ({"name": '"Pup \\ud800"'}, "name: must be text (it holds a lone surrogate"),
        ({"equipped__head__name": '"\\udfff"'}, "equipped.head.name: must be text"),
        ({"name": '"Pup\\u0000"'}, "name: must not contain a NUL character"),
        ({"equipped__paw__name": '"Dag\\u0000ger"'}, "equipped.paw.name: must not contain"),
        ({"name": json.dumps("x" * (NAME_MAX_LENGTH + 1))}, "name: must be at most 100 char"),
        ({"combos___0__name": json.dumps("Ж" * 5000)}, "combos[0].name: must be at most 100"),
        ({"equipped__body__kind": '"\\ud800"'}, 'equipped.body.kind: unknown kind "\\ud800"'),
        ({"combos___0__rarity": json.dumps("x" * 500)}, "combos[0].rarity: unknown rarity"),
    ],
)
def test_each_hostile_value_is_one_located_line(raw, line):
    status, out, err = derive(card_text(**raw))
    assert status == 2, (status, out[:200], err)
    assert out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(line), err
    assert len(err) < 300, err  # a 5,000-character value is not repeated back


def test_a_hostile_key_is_named_shortly_and_stays_writable():
    text = json.dumps(CARD)[:-1] + ', "\\ud800' + "k" * 500 + '": 1}'
    status, _, err = derive(text)
    assert status == 2 and err.startswith("\\ud800kkk") and "unknown field" in err
    assert len(err) < 200
    err.encode("utf-8")  # no lone surrogate left in the message


def test_the_limits_themselves_are_accepted():
    status, out, err = derive(
        card_text(
            token=str(MAX_INT),
            equipped__paw__supply=str(MAX_INT),
            name=json.dumps("Ж" * NAME_MAX_LENGTH),
        )
    )
    assert status == 0, err
    assert json.loads(out)["token"] == MAX_INT


def test_simulate_locates_the_card_in_its_deck(tmp_path):
    deck = json.loads(card_text())
    text = json.dumps({"a": [deck], "b": [deck]}).replace('"supply": 40', f'"supply": {HUGE}')
    path = tmp_path / "decks.json"
    path.write_text(text, encoding="utf-8")
    err = io.StringIO()
    with redirect_stderr(err):
        status = main(["simulate", "--decks", str(path)], io.StringIO())
    assert status == 2
    assert (
        err.getvalue()
        .strip()
        .endswith(
            "Deck a, card 1: equipped.paw.supply: must be at most 9223372036854775807 (2^63 − 1)"
        )
    ), err.getvalue()
    path.write_text('{"a": ' + HUGE + "}", encoding="utf-8")
    err = io.StringIO()
    with redirect_stderr(err):
        assert main(["simulate", "--decks", str(path)], io.StringIO()) == 2
    assert "Traceback" not in err.getvalue() and len(err.getvalue().splitlines()) == 1


def test_the_real_command_line_with_a_lone_surrogate_and_a_huge_number():
    """The whole path in a subprocess: interpreter start-up, stdin bytes, stderr encoding."""
    for text in (card_text(name='"\\ud83d"'), card_text(equipped__paw__supply=HUGE)):
        result = subprocess.run(
            [sys.executable, "-m", "engine", "derive", "-"],
            cwd=ROOT,
            input=text.encode(),
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 2, result.stderr
        assert result.stdout == b"" and b"Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
