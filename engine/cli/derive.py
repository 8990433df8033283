"""``python -m engine derive CARD.json`` (or ``-``): a card's Breakdown as JSON."""

from __future__ import annotations

import argparse
from typing import TextIO

from engine.card.derive import derive
from engine.cli.base import Command, read_input
from engine.serialize import breakdown_to_json, dumps, parse_card


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("card", metavar="CARD.json", help="card JSON file, or - for stdin")
    parser.add_argument("--compact", action="store_true", help="print JSON on one line")
    parser.add_argument(
        "--temporary-id",
        metavar="ID",
        help="derive as a temporary (non-NFT) card with this id: its active skill is rolled",
    )


def _run(args: argparse.Namespace, out: TextIO) -> int:
    card = parse_card(read_input(args.card))
    breakdown = derive(card, temporary_id=args.temporary_id)
    out.write(dumps(breakdown_to_json(breakdown), indent=None if args.compact else 2))
    out.write("\n")
    return 0


COMMAND = Command("derive", _arguments, _run)
