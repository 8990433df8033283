"""engine.ledger and ``python -m engine packs verify``: the protocol of docs/rules.md §7,
with nothing but the engine."""

from __future__ import annotations

import copy
import hashlib
import hmac
import io
import json
import random

from engine.cli import main
from engine.ledger import chain, commitment, draw_seed, entry_hash, verify_ledger
from engine.packs import PackPool, draw_offer

SEED = bytes(range(1, 33))
POOL = [
    [t, tier]
    for t, tier in zip(
        range(1, 13), ["common"] * 6 + ["rare"] * 3 + ["epic", "epic", "legendary"], strict=True
    )
]


def make_ledger(entries: int = 5, *, revealed: bool = True) -> dict:
    promised = commitment(SEED)
    pool = PackPool.of(tuple(pair) for pair in POOL)
    ledger = {
        "date": "2026-12-06",
        "commitment": promised,
        "server_seed": SEED.hex() if revealed else None,
        "versions": {"p:1": POOL},
        "entries": [],
    }
    prev = promised
    for n in range(1, entries + 1):
        client_seed = f"player-{n}-é"
        picks = draw_offer(pool, 4, random.Random(draw_seed(SEED, client_seed, n)))
        entry = chain(
            prev,
            {
                "n": n,
                "pool": "p",
                "odds_version": "p:1",
                "client_seed": client_seed,
                "picks": [c.card_id for c in picks],
            },
        )
        ledger["entries"].append(entry)
        prev = entry["hash"]
    return ledger


def codes(ledger: dict) -> list[tuple[str, int | None]]:
    return [(p.code.value, p.n) for p in verify_ledger(ledger).problems]


def test_the_draw_seed_is_the_hmac_of_the_client_seed_and_nonce() -> None:
    mac = hmac.new(SEED, "ключ:7".encode(), hashlib.sha256).digest()
    assert draw_seed(SEED, "ключ", 7) == int.from_bytes(mac[:8], "big") >> 1
    assert 0 <= draw_seed(SEED, "ключ", 7) < 2**63
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_an_entry_hash_is_over_canonical_json_without_its_hash() -> None:
    entry = {"n": 1, "pool": "p", "odds_version": "p:1", "client_seed": "é", "picks": [3, 1]}
    entry["prev"] = "0" * 64
    text = (
        '{"client_seed":"é","n":1,"odds_version":"p:1","picks":[3,1],"pool":"p","prev":"'
        + "0" * 64
        + '"}'
    )
    assert entry_hash(entry) == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert entry_hash({**entry, "hash": "x"}) == entry_hash(entry)


def test_a_true_ledger_holds() -> None:
    report = verify_ledger(make_ledger())
    assert report.ok and report.picks_checked and report.entries == 5


def test_a_ledger_before_its_reveal_checks_the_chain_only() -> None:
    ledger = make_ledger(revealed=False)
    report = verify_ledger(ledger)
    assert report.ok and not report.picks_checked
    ledger["entries"][1]["picks"] = [1, 2, 3, 4]
    assert codes(ledger) == [("hash", 2)]


def test_altering_an_entry_breaks_it_and_rehashing_it_breaks_the_next_link() -> None:
    ledger = make_ledger()
    ledger["entries"][2]["client_seed"] = "someone else"
    assert codes(ledger) == [("hash", 3), ("picks", 3)]
    ledger["entries"][2]["hash"] = entry_hash(ledger["entries"][2])  # hide it: the chain tells
    assert codes(ledger) == [("prev", 4), ("picks", 3)] or codes(ledger) == [
        ("picks", 3),
        ("prev", 4),
    ]


def test_every_fault_is_found() -> None:
    wrong_seed = make_ledger()
    wrong_seed["server_seed"] = bytes(32).hex()
    assert codes(wrong_seed) == [("commitment", None)]
    renumbered = make_ledger()
    renumbered["entries"][0]["n"] = 9
    assert ("number", 1) in codes(renumbered)
    no_version = make_ledger()
    no_version["versions"] = {}
    assert {c for c, _ in codes(no_version)} == {"version"}
    swapped = make_ledger()
    swapped["entries"][0], swapped["entries"][1] = swapped["entries"][1], swapped["entries"][0]
    assert ("prev", 1) in codes(swapped) and ("number", 1) in codes(swapped)
    for bad in ([], {"entries": "x"}, {**make_ledger(), "commitment": "XYZ"}):
        report = verify_ledger(bad)
        assert not report.ok and report.problems[0].code.value == "shape"
    extra = make_ledger()
    extra["entries"][0]["extra"] = 1
    assert codes(extra)[0] == ("shape", 1)


def test_ten_thousand_openings_verify_within_two_seconds() -> None:
    import time

    ledger = make_ledger(10_000)
    started = time.process_time()
    assert verify_ledger(ledger).ok
    assert time.process_time() - started <= 2.0


def run_cli(tmp_path, ledger) -> tuple[int, str]:
    path = tmp_path / "ledger.json"
    path.write_text(json.dumps(ledger, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    status = main(["packs", "verify", str(path)], out)
    return status, out.getvalue()


def test_the_cli_verifies_a_saved_ledger(tmp_path) -> None:
    status, text = run_cli(tmp_path, make_ledger())
    assert status == 0 and text == "OK: ledger 2026-12-06, 5 entries, chain, every pick\n"
    tampered = make_ledger()
    tampered["entries"][4]["picks"].reverse()
    status, text = run_cli(tmp_path, tampered)
    assert status == 1
    assert "FAIL hash: entry 5: hash is not the hash of its contents" in text
    assert "FAIL picks: entry 5: drawing again gives other cards" in text
    hidden = make_ledger(revealed=False)
    status, text = run_cli(tmp_path, hidden)
    assert status == 0 and "picks not checked (server seed not revealed)" in text


def test_the_cli_refuses_what_is_not_json(tmp_path, capsys) -> None:
    path = tmp_path / "ledger.json"
    path.write_text("{nope", encoding="utf-8")
    assert main(["packs", "verify", str(path)], io.StringIO()) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_the_other_packs_commands_print_as_before(tmp_path) -> None:
    pool = tmp_path / "pool.json"
    pool.write_text(
        json.dumps({"cards": [{"id": 1, "rarity": "common"}, {"id": 2, "rarity": "rare"}]})
    )
    out = io.StringIO()
    assert main(["packs", "draw", str(pool), "--picks", "1", "--seed", "1"], out) == 0
    assert out.getvalue() == '{"seed": 1, "picks": [1]}\n'
    out = io.StringIO()
    assert main(["packs", "odds", str(pool), "--picks", "1"], out) == 0
    assert json.loads(out.getvalue())["tiers"]["rare"]["per_card"] == "1/3"


def test_a_deep_copy_verifies_the_same() -> None:
    ledger = make_ledger(3)
    assert verify_ledger(copy.deepcopy(ledger)).ok
