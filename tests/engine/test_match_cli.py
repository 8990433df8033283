"""`python -m engine simulate`: JSON out, or one line and exit 2 for bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def card(token: int, paw: str = "Dagger", supply: int = 40) -> dict:
    return {
        "token": token,
        "name": f"Pup #{token}",
        "equipped": {
            "head": {"name": "Cap", "supply": 900},
            "body": {"name": "Chain Armor", "supply": 12},
            "paw": {"name": paw, "supply": supply},
            "background": {"name": "Sky", "supply": 800},
        },
    }


def run(tmp_path, decks, *args: str, raw: str | None = None):
    path = tmp_path / "decks.json"
    path.write_text(raw if raw is not None else json.dumps(decks), encoding="utf-8")
    out = io.StringIO()
    code = main(["simulate", "--decks", str(path), *args], out)
    return code, out.getvalue()


GOOD = {"a": [card(1), card(2, "Hex Wand", 3)], "b": [card(3, "Axe", 2), card(4)]}


def test_summary_counts_every_game(tmp_path):
    code, out = run(tmp_path, GOOD, "--seed", "7", "--games", "20", "--bots", "greedy,random")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 20 and data["seed"] == 7
    assert data["bots"] == {"a": "greedy", "b": "random"}
    assert data["wins"]["a"] + data["wins"]["b"] + data["draws"] == 20
    assert data["average_rounds"] > 0
    assert sum(data["end_reasons"].values()) == 20
    assert "log" not in data


def test_game_i_uses_seed_s_plus_i(tmp_path):
    _, series = run(tmp_path, GOOD, "--seed", "10", "--games", "3", "--bots", "random,random")
    singles = [
        json.loads(run(tmp_path, GOOD, "--seed", str(10 + i), "--bots", "random,random")[1])
        for i in range(3)
    ]
    data = json.loads(series)
    assert data["wins"]["a"] == sum(s["wins"]["a"] for s in singles)
    assert data["draws"] == sum(s["draws"] for s in singles)


def test_log_holds_one_full_match(tmp_path):
    code, out = run(tmp_path, GOOD, "--seed", "4", "--games", "2", "--log")
    assert code == 0
    log = json.loads(out)["log"]
    assert log["seed"] == 4
    assert [c["id"] for c in log["decks"]["a"]] == ["1", "2"]
    codes = [e["code"] for e in log["events"]]
    assert codes[:3] == ["hero.start", "hero.start", "round.start"]
    assert codes[-1] == "match.end"
    assert log["result"] in ("a", "b", "draw")
    assert log["actions"][0]["type"] in ("pick", "boost")


@pytest.mark.parametrize(
    ("decks", "raw", "args", "needle"),
    [
        ({"a": [], "b": [card(1)]}, None, (), "at least 1 card"),
        ({"a": [card(i) for i in range(1, 6)], "b": [card(9)]}, None, (), "at most 4"),
        ({"a": [card(1), card(1)], "b": [card(9)]}, None, (), "only once"),
        ({"a": [card(1)], "b": [{"token": 0, "name": "x"}]}, None, (), "Deck b, card 1: token"),
        ({"a": [card(1)]}, None, (), 'Deck "b"'),
        (None, "{not json", (), "not valid JSON"),
        (None, "[1, 2]", (), "must be an object"),
        (GOOD, None, ("--bots", "greedy"), "--bots"),
        (GOOD, None, ("--bots", "greedy,smart"), "--bots"),
        (GOOD, None, ("--games", "0"), "--games"),
        (GOOD, None, ("--seed", "x"), "invalid int"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, decks, raw, args, needle):
    code, out = run(tmp_path, decks, *args, raw=raw)
    err = capsys.readouterr().err
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err, err
    assert "Traceback" not in err


def test_missing_file_and_a_real_process(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--decks", str(tmp_path / "none.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().endswith("file not found")
    assert "Traceback" not in result.stderr
