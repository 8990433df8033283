"""``python -m engine simulate --decks FILE.json --seed S --games N --bots A,B [--log]``:
bot-vs-bot matches between two decks, a JSON summary on stdout."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from engine.cli.base import Command, UsageError, add_series_arguments, read_input, series_bots
from engine.match import InvalidDeckError
from engine.match.bots import BOTS
from engine.match.simulate import load_decks, play_match, run_series
from engine.serialize import action_to_json, event_to_json, load_json, match_card_to_json
from engine.types import InvalidCardError


def simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``python -m engine simulate``."""
    parser.description = (
        "Play bot-vs-bot matches between two decks and print a JSON summary "
        "(wins per side, draws, average rounds). Game i uses seed S+i; --log adds "
        "the full event log of game 0 (seed S)."
    )
    parser.add_argument(
        "--decks",
        required=True,
        metavar="FILE.json",
        help='{"a": [cards], "b": [cards]}, each card in the input schema of `derive`',
    )
    add_series_arguments(parser, BOTS)


def simulate_run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``simulate``: JSON on ``out`` (exit 0); bad input raises the CLI's UsageError."""
    bots = series_bots(args, BOTS, "greedy,random")
    raw = read_input(args.decks)
    try:
        data = load_json(raw, "decks")
    except InvalidCardError as exc:
        raise UsageError(f"{args.decks}: {exc}") from None
    try:
        deck_a, deck_b = load_decks(data)
    except InvalidDeckError as exc:
        raise UsageError(f"{args.decks}: {exc}") from None
    summary = run_series(deck_a, deck_b, bots, args.seed, args.games)
    if args.log:
        record = play_match(deck_a, deck_b, bots, args.seed, log=True)
        summary["log"] = {
            "seed": args.seed,
            "decks": {
                "a": [match_card_to_json(c) for c in deck_a],
                "b": [match_card_to_json(c) for c in deck_b],
            },
            "result": record.state.result,
            "end_reason": record.state.end_reason,
            "rounds": record.state.round,
            "actions": [action_to_json(a) for a in record.actions],
            "events": [event_to_json(e) for e in record.log],
        }
    json.dump(summary, out, ensure_ascii=False, indent=2)
    out.write("\n")
    return 0


COMMAND = Command("simulate", simulate_arguments, simulate_run)
