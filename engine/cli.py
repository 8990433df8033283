"""Command line: ``python -m engine derive CARD.json`` (or ``-`` for stdin).

Prints the Breakdown as JSON on stdout (exit 0). Bad input — a missing file,
text that is not JSON, a card that breaks the input rules, bad arguments —
prints one line on stderr naming the field and exits with status 2.

Subcommands are registered in ``COMMANDS``; a new one (such as ``simulate``,
for the match engine) adds a ``Command`` there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn, TextIO

from engine.derive import derive
from engine.serialize import breakdown_to_json, dumps, parse_card
from engine.simulate import simulate_arguments, simulate_run
from engine.types import InvalidCardError

__all__ = ["COMMANDS", "EXIT_BAD_INPUT", "Command", "UsageError", "main", "read_input"]

EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad input to a subcommand; its message is the one line printed on stderr."""


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, how it adds its arguments, and what it runs."""

    name: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO], int]


def read_input(path: str) -> bytes:
    """The bytes of ``path``, or of stdin for ``-``; unreadable → ``UsageError``."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        raise UsageError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory") from None
    except OSError as err:
        raise UsageError(f"{path}: cannot read ({err.strerror})") from None


def _derive_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("card", metavar="CARD.json", help="card JSON file, or - for stdin")
    parser.add_argument("--compact", action="store_true", help="print JSON on one line")
    parser.add_argument(
        "--temporary-id",
        metavar="ID",
        help="derive as a temporary (non-NFT) card with this id: its active skill is rolled",
    )


def _derive_run(args: argparse.Namespace, out: TextIO) -> int:
    card = parse_card(read_input(args.card))
    breakdown = derive(card, temporary_id=args.temporary_id)
    out.write(dumps(breakdown_to_json(breakdown), indent=None if args.compact else 2))
    out.write("\n")
    return 0


COMMANDS: list[Command] = [
    Command("derive", _derive_arguments, _derive_run),
    Command("simulate", simulate_arguments, simulate_run),  # engine/simulate.py
]


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr, status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    parser = _Parser(prog="python -m engine", description="Card Codex rules engine.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        cmd_parser = sub.add_parser(command.name, prog=f"python -m engine {command.name}")
        command.add_arguments(cmd_parser)
        cmd_parser.set_defaults(_run=command.run)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    stdout = out if out is not None else sys.stdout
    try:
        args = build_parser().parse_args(argv)
        return int(args._run(args, stdout))
    except (InvalidCardError, UsageError) as err:
        print(" ".join(str(err).splitlines()), file=sys.stderr)
        return EXIT_BAD_INPUT
