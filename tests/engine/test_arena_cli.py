"""`python -m engine arena stats|team|simulate`: JSON out, or one line naming the field and
exit 2 for bad input (never a traceback)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.arena.match import EVENT_CODES
from engine.cli import arena as arena_cli
from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def slab(asset_id: str, value: object = "10", grade: object = 9, year: object = 2010) -> dict:
    return {"asset_id": asset_id, "name": f"Card {asset_id}", "grade": grade, "year": year,
            "value": value}  # fmt: skip


def run(tmp_path, *args: str, data: object = None, raw: str | None = None) -> tuple[int, str]:
    path = tmp_path / "input.json"
    path.write_text(raw if raw is not None else json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    code = main(["arena", *[a if a != "FILE" else str(path) for a in args]], out)
    return code, out.getvalue()


def test_stats_prints_the_stats_and_the_trace(tmp_path) -> None:
    code, out = run(tmp_path, "stats", "FILE", data=slab("cc-1", "62.60", 9.5, 2001))
    assert code == 0
    data = json.loads(out)
    assert {k: data[k] for k in list(data)[:-1]} == {
        "asset_id": "cc-1",
        "hp": 80,
        "tier": "uncommon",
        "attack": 25,
        "armor": 10,
        "element": "star",
        "power": {"bonus": 20, "cost": 2},
        "ko_points": 1,
    }
    codes = [step["code"] for step in data["trace"]]
    assert codes[0] == "slab.hp" and "slab.element" in codes
    nxt = next(s for s in data["trace"] if s["code"] == "slab.next_band")
    assert nxt["params"]["missing"] == "12.40" and nxt["params"]["tier"] == "rare"


def test_stats_takes_whole_dollars_and_common_slabs_have_no_power(tmp_path) -> None:
    code, out = run(tmp_path, "stats", "FILE", data=slab("cc-3", 20, 10, 2020))
    data = json.loads(out)
    assert code == 0 and data["power"] is None and data["tier"] == "common"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (slab("a", 12.4), "slab.value"),  # money as a float: refused
        (slab("a", "twelve"), "slab.value"),
        (slab("a", "-1"), "slab.value"),
        (slab("a", None), "slab.value"),
        (slab("a", "10", 9.25), "slab.grade"),
        (slab("a", "10", "9"), "slab.grade"),
        (slab("a", "10", 9, 2010.5), "slab.year"),
        (slab("", "10"), "slab.asset_id"),
        ({"asset_id": "a", "name": "x", "grade": 9, "year": 2000}, "slab.value"),
        ([1, 2], "slab"),
    ],
)
def test_stats_bad_input_names_the_field(tmp_path, capsys, data, field) -> None:
    code, out = run(tmp_path, "stats", "FILE", data=data)
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert err.startswith(field), err
    assert len(err.strip().splitlines()) == 1


def test_stats_not_json(tmp_path, capsys) -> None:
    code, _ = run(tmp_path, "stats", "FILE", raw="{nope")
    assert code == 2 and "not valid JSON" in capsys.readouterr().err


def test_team_prints_value_and_brackets(tmp_path) -> None:
    four = [slab(f"t{i}", "37.50") for i in range(4)]
    code, out = run(tmp_path, "team", "FILE", data={"slabs": four})
    assert code == 0
    assert json.loads(out) == {"value": "150.00", "brackets": ["rookie", "pro", "elite", "open"]}
    four[0]["value"] = "37.51"
    code, out = run(tmp_path, "team", "FILE", data={"slabs": four})
    assert json.loads(out)["brackets"] == ["pro", "elite", "open"]


@pytest.mark.parametrize(
    ("slabs", "rule"),
    [
        ([slab("a"), slab("b"), slab("c")], "size"),
        ([slab("a"), slab("a"), slab("c"), slab("d")], "duplicate"),
        ([slab("a", 300), slab("b", 100), slab("c", 75), slab("d")], "too_many_limited"),
    ],
)
def test_team_names_the_broken_rule(tmp_path, capsys, slabs, rule) -> None:
    code, _ = run(tmp_path, "team", "FILE", data={"slabs": slabs})
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("slabs:") and f"({rule})" in err


def test_team_bad_slab_is_located(tmp_path, capsys) -> None:
    code, _ = run(tmp_path, "team", "FILE", data={"slabs": [slab("a"), slab("b", 1.5)]})
    assert code == 2 and capsys.readouterr().err.startswith("slabs[1].value")


TEAMS = {
    "a": [slab("cc-1", "300", 10, 2001), slab("cc-2", "60", 8), slab("cc-3", "12"),
          slab("cc-7", "30", 7, 1999)],
    "b": [slab("x-1", "30"), slab("x-2", "150", 9, 2003), slab("x-3", "5", 1),
          slab("x-4", "80", 10, 2016)],
}  # fmt: skip


def test_simulate_summary_and_log(tmp_path) -> None:
    code, out = run(tmp_path, "simulate", "--teams", "FILE", "--seed", "4", "--games", "25",
                    "--bots", "greedy,planner", "--log", data=TEAMS)  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 25 and data["bots"] == {"a": "greedy", "b": "planner"}
    assert data["wins"]["a"] + data["wins"]["b"] + data["draws"] == 25
    assert sum(data["end_reasons"].values()) == 25 and data["average_turns"] > 0
    assert 0 <= data["first_player_wins"] <= 25
    log = data["log"]
    assert log["seed"] == 4 and log["first"] in ("a", "b")
    assert log["events"][0]["code"] == "match.start" and log["events"][-1]["code"] == "match.end"
    assert log["events"][-1]["params"]["result"] == log["result"]
    for event in log["events"]:
        assert list(event["params"]) == list(EVENT_CODES[event["code"]])


def test_simulate_game_i_uses_seed_s_plus_i(tmp_path) -> None:
    _, series = run(tmp_path, "simulate", "--teams", "FILE", "--seed", "10", "--games", "3",
                    "--bots", "random,random", data=TEAMS)  # fmt: skip
    results = []
    for i in range(3):
        _, one = run(tmp_path, "simulate", "--teams", "FILE", "--seed", str(10 + i),
                     "--bots", "random,random", "--log", data=TEAMS)  # fmt: skip
        results.append(json.loads(one)["log"]["result"])
    data = json.loads(series)
    assert data["wins"]["a"] == results.count("a") and data["draws"] == results.count("draw")


@pytest.mark.parametrize(
    ("args", "data", "field"),
    [
        (["--bots", "greedy"], TEAMS, "--bots"),
        (["--bots", "greedy,chess"], TEAMS, "--bots"),
        (["--games", "0"], TEAMS, "--games"),
        ([], {"a": TEAMS["a"]}, "b:"),
        ([], {"a": TEAMS["a"], "b": TEAMS["b"][:3]}, "b:"),
        ([], {"a": TEAMS["a"], "b": [*TEAMS["b"][:3], slab("x-9", "oops")]}, "b[3].value"),
    ],
)
def test_simulate_bad_input(tmp_path, capsys, args, data, field) -> None:
    code, _ = run(tmp_path, "simulate", "--teams", "FILE", *args, data=data)
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(field), err


def test_the_docstring_lists_every_event_code_and_its_fields() -> None:
    doc = arena_cli.__doc__ or ""
    for code, fields in EVENT_CODES.items():
        line = next((ln for ln in doc.splitlines() if ln.strip().startswith(f"- ``{code}``")), "")
        assert line, f"{code} is not listed"
        start = doc.index(line)
        text = doc[start : start + 400].split("\n- ")[0]
        for name in fields:
            assert name in text, (code, name)


def test_no_traceback_from_the_real_command_line(tmp_path) -> None:
    path = tmp_path / "slab.json"
    path.write_text('{"asset_id": "a", "name": "b", "grade": 9, "year": 2000, "value": 1.5}')
    result = subprocess.run([sys.executable, "-m", "engine", "arena", "stats", str(path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("slab.value")
