"""Random JSON and random bytes into `python -m engine derive -`: exit 0 or 2, never a traceback.

Most cases call the command line's `main()` in-process with stdin and stderr replaced (fast);
a few run the real `python -m engine derive -` in a subprocess to check the whole path,
interpreter start-up and encoding included. Deterministic (derandomized) and bounded.
"""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import cli

ROOT = Path(__file__).resolve().parent.parent.parent
SLOTS = ["head", "body", "paw", "background"]
KINDS = ["normal", "god", "premium"]

VALID_CARD = {
    "token": 4242,
    "name": "Fuzzy Paw",
    "starter": False,
    "equipped": {
        "head": {"name": "Crown of Storms", "supply": 3, "kind": "normal"},
        "body": {"name": "Iron Vest", "supply": 40, "kind": "normal"},
        "paw": {"name": "Qx Mitten", "supply": 12, "kind": "normal"},
        "background": {"name": "Night Sky", "supply": 900, "kind": "normal"},
    },
    "wardrobe": [{"slot": "head", "name": "Shadow Hood", "supply": 2, "kind": "god"}],
    "getgems_rank": 120,
    "burned_stickers": 1,
    "combos": [
        {"name": "Storm", "attributes": [["head", "Crown of Storms"]], "rarity": "epic"},
    ],
}

SETTINGS = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(SLOTS + KINDS + ["legendary", "", "-1", "1e999"]),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(
            st.one_of(st.text(max_size=10), st.sampled_from(SLOTS)), children, max_size=5
        ),
    ),
    max_leaves=25,
)


def run_main(data: bytes, *extra: str) -> tuple[int, str, str]:
    """`main(["derive", "-", ...])` in-process, stdin = data; returns (status, stdout, stderr)."""

    class Stdin:
        buffer = io.BytesIO(data)

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = Stdin()  # type: ignore[assignment]
    try:
        with redirect_stderr(err):
            try:
                status = cli.main(["derive", "-", *extra], out=out)
            except SystemExit as exc:  # argparse or an explicit exit: fine if 0 or 2
                status = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def assert_clean(data: bytes) -> None:
    status, out, err = run_main(data)
    assert status in (0, 2), (status, data[:300], err)
    assert "Traceback" not in err and "Traceback" not in out, err
    if status == 0:
        json.loads(out)
    else:
        assert err.strip(), f"exit 2 with nothing on stderr for {data[:300]!r}"
        assert len(err.strip().splitlines()) == 1, err


def test_the_valid_card_derives():
    status, out, err = run_main(json.dumps(VALID_CARD).encode(), "--compact")
    assert status == 0, err
    assert json.loads(out)["rarity"]


@SETTINGS
@given(value=json_values)
def test_random_json_exits_0_or_2(value):
    assert_clean(json.dumps(value).encode())


def _paths(obj, prefix=()):
    """Every path into a JSON value (dict keys and list indexes)."""
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*prefix, i))


CARD_PATHS = [p for p in _paths(VALID_CARD) if p]


@SETTINGS
@given(
    edits=st.lists(
        st.tuples(st.sampled_from(CARD_PATHS), st.one_of(json_values, st.just("__delete__"))),
        min_size=1,
        max_size=3,
    )
)
def test_a_valid_card_with_random_fields_exits_0_or_2(edits):
    card = copy.deepcopy(VALID_CARD)
    for path, value in edits:
        target = card
        try:
            for key in path[:-1]:
                target = target[key]
            if value == "__delete__":
                del target[path[-1]]
            else:
                target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    assert_clean(json.dumps(card).encode())


@SETTINGS
@given(data=st.binary(max_size=200))
def test_random_bytes_exit_0_or_2(data):
    assert_clean(data)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xff\xfe\x00garbage",
        b"[" * 100_000,  # deeper than the JSON parser's recursion limit
        b'{"token": 1e999}',
        json.dumps(VALID_CARD).encode(),
        json.dumps({**VALID_CARD, "getgems_rank": "first"}).encode(),
    ],
    ids=["empty", "binary", "deep", "huge-number", "valid", "wrong-type"],
)
def test_the_real_command_line_exits_0_or_2(data):
    result = subprocess.run(
        [sys.executable, "-m", "engine", "derive", "-"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    stderr = result.stderr.decode("utf-8", errors="replace")
    assert result.returncode in (0, 2), stderr
    assert "Traceback" not in stderr, stderr
    if result.returncode == 2:
        assert len(stderr.strip().splitlines()) == 1, stderr
