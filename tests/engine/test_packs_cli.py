"""``python -m engine packs odds|draw``: output shape, exactness, and one-line errors."""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from engine.cli import main
from engine.packs import draw_offer, new_card_odds, offer_odds
from engine.types import Rarity

POOL = {
    "cards": [
        {"id": 1, "rarity": "common"},
        {"id": "two", "rarity": "common"},
        {"id": 3, "rarity": "rare"},
        {"id": 4, "rarity": "legendary"},
    ]
}


def write(tmp_path: Path, data: object, name: str = "pool.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def run(argv: list[str], capsys) -> tuple[int, object, str]:
    out = io.StringIO()
    status = main(argv, out=out)
    err = capsys.readouterr().err
    return status, (json.loads(out.getvalue()) if status == 0 else out.getvalue()), err


def test_odds_shape_and_values(tmp_path: Path, capsys) -> None:
    status, result, err = run(["packs", "odds", write(tmp_path, POOL), "--picks", "2"], capsys)
    assert status == 0 and err == ""
    assert set(result) == {"picks", "tiers", "cards"}
    assert result["picks"] == 2
    assert list(result["tiers"]) == ["common", "rare", "epic", "legendary"]
    assert result["tiers"]["epic"] == {
        "cards": 0,
        "expected": "0",
        "at_least_one": "0",
        "per_card": "0",
    }
    pool = [(c["id"], c["rarity"]) for c in POOL["cards"]]
    odds = offer_odds(pool, 2)
    for row in odds.tiers:
        assert result["tiers"][row.rarity.value] == {
            "cards": row.cards,
            "expected": str(row.expected),
            "at_least_one": str(row.at_least_one),
            "per_card": str(row.per_card),
        }
    assert result["cards"] == {str(c.card_id): str(c.chance) for c in odds.cards}
    for text in result["cards"].values():  # lowest terms: the string is its own Fraction
        assert str(Fraction(text)) == text


def test_whole_numbers_are_written_whole(tmp_path: Path, capsys) -> None:
    status, result, _ = run(["packs", "odds", write(tmp_path, POOL), "--picks", "10"], capsys)
    assert status == 0
    assert result["picks"] == 4
    assert set(result["cards"].values()) == {"1"}
    assert result["tiers"]["common"]["expected"] == "2"


def test_the_chance_of_something_new(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, POOL)
    status, result, _ = run(["packs", "odds", path, "--picks", "1", "--owned", "1,two,999"], capsys)
    assert status == 0
    pool = [(c["id"], c["rarity"]) for c in POOL["cards"]]
    assert result["new"] == str(new_card_odds(pool, 1, {1, "two"}).chance)
    status, result, _ = run(["packs", "odds", path, "--picks", "3", "--owned", ""], capsys)
    assert result["new"] == "1"
    status, result, _ = run(["packs", "odds", path, "--picks", "3", "--owned", "1,two,3,4"], capsys)
    assert result["new"] == "0"


def test_draw_uses_random_random_seed(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, POOL)
    pool = [(c["id"], Rarity(c["rarity"])) for c in POOL["cards"]]
    for seed in (0, 5, -7, 2**80):
        status, result, _ = run(
            ["packs", "draw", path, "--picks", "3", "--seed", str(seed)], capsys
        )
        assert status == 0
        expected = [c.card_id for c in draw_offer(pool, 3, random.Random(seed))]
        assert result == {"seed": seed, "picks": expected}
        assert all(type(p) in (int, str) for p in result["picks"])  # ids as given


def test_an_empty_pool(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, {"cards": []})
    status, result, _ = run(["packs", "odds", path, "--picks", "5"], capsys)
    assert status == 0 and result["picks"] == 0 and result["cards"] == {}
    status, result, _ = run(["packs", "draw", path, "--picks", "5", "--seed", "1"], capsys)
    assert result == {"seed": 1, "picks": []}


BAD_POOLS = [
    ("{not json", "not valid JSON"),
    ([], "cards:"),
    ({}, "cards: missing"),
    ({"cards": "x"}, "cards: missing"),
    ({"cards": [5]}, "cards[0]:"),
    ({"cards": [{"rarity": "common"}]}, "cards[0].id:"),
    ({"cards": [{"id": True, "rarity": "common"}]}, "cards[0].id:"),
    ({"cards": [{"id": "", "rarity": "common"}]}, "cards[0].id:"),
    ({"cards": [{"id": [1], "rarity": "common"}]}, "cards[0].id:"),
    (
        {"cards": [{"id": 1, "rarity": "common"}, {"id": "1", "rarity": "rare"}]},
        "cards[1].id: '1' is in the pool twice",
    ),
    ({"cards": [{"id": 1, "rarity": "free"}]}, "cards[0].rarity: Free cards never enter a pool"),
    ({"cards": [{"id": 1, "rarity": "mythic"}]}, "cards[0].rarity:"),
    ({"cards": [{"id": 1, "rarity": "COMMON"}]}, "cards[0].rarity:"),
    ({"cards": [{"id": 1}]}, "cards[0].rarity:"),
]


@pytest.mark.parametrize(("data", "message"), BAD_POOLS)
@pytest.mark.parametrize("command", ["odds", "draw"])
def test_bad_pools_exit_2_with_one_line(tmp_path: Path, capsys, data, message, command) -> None:
    argv = ["packs", command, write(tmp_path, data), "--picks", "2"]
    if command == "draw":
        argv += ["--seed", "1"]
    status, _, err = run(argv, capsys)
    assert status == 2
    assert err.count("\n") == 1 and message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--picks", "0"], "--picks"),
        (["--picks", "11"], "--picks"),
        (["--picks", "²"], "--picks"),
        (["--picks", "٣"], "--picks"),
        (["--picks", " 3"], "--picks"),
        (["--picks", "2", "--seed", "²"], "--seed"),
        (["--picks", "2", "--seed", "1.5"], "--seed"),
        (["--picks", "2", "--seed", ""], "--seed"),
        (["--picks", "2"], "--seed"),
        (["--seed", "2"], "--picks"),
    ],
)
def test_bad_arguments_name_the_field(tmp_path: Path, capsys, args: list[str], field: str) -> None:
    status, _, err = run(["packs", "draw", write(tmp_path, POOL), *args], capsys)
    assert status == 2
    assert err.count("\n") == 1 and field in err


def test_a_missing_file_and_a_missing_subcommand(tmp_path: Path, capsys) -> None:
    status, _, err = run(["packs", "odds", str(tmp_path / "nope.json"), "--picks", "1"], capsys)
    assert status == 2 and "file not found" in err
    status, _, err = run(["packs"], capsys)
    assert status == 2 and "odds|draw" in err
    status, _, err = run(["packs", "shuffle"], capsys)
    assert status == 2 and err.count("\n") == 1


def test_stdin(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(POOL).encode())))
    status, result, _ = run(["packs", "odds", "-", "--picks", "1"], capsys)
    assert status == 0 and result["picks"] == 1
