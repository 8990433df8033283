"""``python -m engine derive``: good input prints the Breakdown, bad input one line and status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.card.derive import derive
from engine.serialize import breakdown_to_json, card_from_json
from tests.engine.test_serialize import GOOD, mutated

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=data,
        capture_output=True,
        timeout=60,
        check=False,
    )


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "card.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_derive_file(tmp_path: Path) -> None:
    result = run("derive", write(tmp_path, GOOD))
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    out = json.loads(result.stdout)
    assert out == breakdown_to_json(derive(card_from_json(GOOD)))
    assert out["rarity"] == "epic" and out["role"] in {"tank", "striker", "support", "control"}


def test_derive_stdin_compact() -> None:
    result = run("derive", "-", "--compact", stdin=json.dumps(GOOD))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(b"\n") == 1
    assert json.loads(result.stdout)["rules"]["getgems_rank"] == "rare"


def test_derive_unicode_names(tmp_path: Path) -> None:
    card = mutated("equipped.head.name", "Кот-Кинжал")
    result = run("derive", write(tmp_path, card))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.decode("utf-8"))["skill_table"][0]["name"] == "Кот-Кинжал"


def test_derive_temporary_card(tmp_path: Path) -> None:
    result = run("derive", write(tmp_path, GOOD), "--temporary-id", "bot-2")
    assert result.returncode == 0, result.stderr
    codes = [s["code"] for s in json.loads(result.stdout)["trace"]]
    assert "skill.temporary_roll" in codes and "skill.active" not in codes


def assert_one_line_error(result: subprocess.CompletedProcess[bytes], needle: str) -> None:
    assert result.returncode == 2
    assert result.stdout == b""
    err = result.stderr.decode("utf-8")
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert needle in err, err


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (mutated("equipped.paw", ...), "equipped.paw: is required"),
        (mutated("equipped.paw.supply", 0), "equipped.paw.supply: must be an integer ≥ 1"),
        (mutated("equipped.paw.supply", True), "equipped.paw.supply: must be an integer ≥ 1"),
        (mutated("equipped.tail", {"name": "x", "supply": 1}), "equipped.tail: unknown slot"),
        (mutated("wardrobe[0].slot", "tail"), "wardrobe[0].slot: unknown slot"),
        (mutated("equipped.paw.kind", "shiny"), "equipped.paw.kind: unknown kind"),
        (mutated("token", "12"), "token: must be an integer"),
        (mutated("burned_stickers", True), "burned_stickers: must be an integer ≥ 0"),
        ("{not json", "card: not valid JSON"),
        ("[1, 2]", "card: must be an object"),
    ],
)
def test_bad_card_file(tmp_path: Path, data: Any, needle: str) -> None:
    assert_one_line_error(run("derive", write(tmp_path, data)), needle)


def test_bad_card_on_stdin() -> None:
    assert_one_line_error(run("derive", "-", stdin="nope"), "card: not valid JSON")


def test_not_utf8_on_stdin() -> None:
    assert_one_line_error(run("derive", "-", stdin=b"\xff\xfe"), "card: not UTF-8")


def test_missing_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.json")
    assert_one_line_error(run("derive", missing), f"{missing}: file not found")


def test_directory(tmp_path: Path) -> None:
    assert_one_line_error(run("derive", str(tmp_path)), "is a directory")


@pytest.mark.parametrize("args", [(), ("frobnicate",), ("derive",), ("derive", "a", "b")])
def test_bad_arguments(args: tuple[str, ...]) -> None:
    assert_one_line_error(run(*args), "python -m engine")


def test_help_exits_zero() -> None:
    result = run("derive", "--help")
    assert result.returncode == 0
    assert b"CARD.json" in result.stdout


def test_output_does_not_depend_on_hash_seed(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    outputs = set()
    for seed in ("0", "1", "12345"):
        result = subprocess.run(
            [sys.executable, "-m", "engine", "derive", path, "--compact"],
            cwd=ROOT,
            capture_output=True,
            timeout=60,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1
