"""Command line: ``python -m engine COMMAND``.

- ``derive CARD.json`` (or ``-``): a card's Breakdown as JSON (``engine.cli.derive``).
- ``simulate --decks FILE.json …``: bot-vs-bot matches (``engine.cli.simulate``).

Every command prints JSON on stdout (exit 0). Bad input — a missing file, text that is
not JSON, input that breaks the rules, bad arguments — prints one line on stderr naming
the field and exits with status 2, never a traceback. A new subcommand is a module here
with a ``COMMAND`` (an ``engine.cli.base.Command``), listed in ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from engine.cli import arena, derive, packs, simulate
from engine.cli.base import EXIT_BAD_INPUT, Command, UsageError, read_input
from engine.types import InvalidCardError

__all__ = ["COMMANDS", "EXIT_BAD_INPUT", "Command", "UsageError", "main", "read_input"]

COMMANDS: list[Command] = [derive.COMMAND, simulate.COMMAND, packs.COMMAND, arena.COMMAND]


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
