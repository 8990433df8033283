"""Replays and records: a match rebuilt from its seed and actions, and a recorder that keeps them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.match.cards import MatchCard
from engine.match.rules import apply, new_match, opening_events
from engine.match.state import Action, Event, MatchState

# ---------------------------------------------------------------------------
# Replays and records


@dataclass(frozen=True, slots=True)
class Replay:
    """A match as a record: its current (or final) state, its actions and its log by step.

    Step 0 is the opening (each Hero's starting HP); step ``r`` ≥ 1 is round ``r``, from
    its ``round.start``. ``rounds[k]`` holds the events of step ``k`` and
    ``snapshots[k]`` the state at the end of it: the state in which round ``k + 1``
    began, or, for the last step, the current state (the final one once the match is
    over). Both have one entry per step. A record made without a log (``Recorder(…,
    log=False)``, the simulator's fast path) has empty ``log``, ``rounds`` and
    ``snapshots``.

    >>> from engine.match import A, B, Boost, Commit, MatchCard, Pick, Surrender, new_match, replay

    >>> from engine.types import BoostKind, Rarity, Role

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> record = replay((pup,), (pup,), 0, [Pick(A, 0), Commit(A), Pick(B, 0), Commit(B)])
    >>> len(record.rounds), [s.round for s in record.snapshots], record.rounds[1][0].code
    (3, [1, 2, 2], 'round.start')
    """

    state: MatchState
    actions: tuple[Action, ...]
    log: tuple[Event, ...]
    rounds: tuple[tuple[Event, ...], ...]
    snapshots: tuple[MatchState, ...]


class Recorder:
    """A match being played or rebuilt: ``play(action)`` applies it and records it.

    ``state`` is the current state. With ``log=True`` the recorder keeps the event log,
    where each step starts, and a snapshot at the end of each step (see ``Replay``);
    ``record()`` freezes all that into a ``Replay``. ``Recorder.resume(replay)`` goes on
    from a replay (a stored match the player moves in).

    >>> from engine.match import A, B, Boost, Commit, MatchCard, Pick, Surrender, new_match, replay

    >>> from engine.types import BoostKind, Rarity, Role

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> recorder = Recorder(new_match((pup,), (pup,)))
    >>> [e.code for e in recorder.play(Surrender(B))]
    ['surrender', 'match.end']
    >>> recorder.record().state.result
    'a'
    """

    __slots__ = ("_snapshots", "_starts", "actions", "log", "logging", "state")

    def __init__(self, state: MatchState, *, log: bool = True) -> None:
        self.state = state
        self.actions: list[Action] = []
        self.logging = log
        self.log: list[Event] = list(opening_events(state)) if log else []
        # Where each step after the opening starts in the log (at its round.start), and
        # the state at the end of each finished step (the last step's is ``state``).
        self._starts: list[int] = [len(self.log) - 1] if log else []
        self._snapshots: list[MatchState] = [state] if log else []

    @classmethod
    def resume(cls, record: Replay) -> Recorder:
        """A recorder that goes on from ``record`` (one made with its log)."""
        if not record.rounds:
            raise ValueError("only a record made with its log can be resumed")
        recorder = cls(record.state, log=False)
        recorder.actions = list(record.actions)
        recorder.logging = True
        recorder.log = list(record.log)
        at = 0
        for events in record.rounds[:-1]:
            at += len(events)
            recorder._starts.append(at)
        recorder._snapshots = list(record.snapshots[:-1])
        return recorder

    def play(self, action: Action) -> tuple[Event, ...]:
        """Apply ``action`` to the current state and record it; its events.

        Raises IllegalActionError (nothing is recorded then).
        """
        before = self.state
        self.state, events = apply(before, action)
        self.actions.append(action)
        if self.logging:
            log = self.log
            for event in events:
                if event.code == "round.start":
                    self._starts.append(len(log))
                log.append(event)
            if self.state.round != before.round:
                self._snapshots.append(self.state)
        return events

    def record(self) -> Replay:
        """What has been played so far, frozen."""
        log = tuple(self.log)
        if not self.logging:
            return Replay(self.state, tuple(self.actions), log, (), ())
        bounds = [0, *self._starts, len(log)]
        rounds = tuple(log[bounds[i] : bounds[i + 1]] for i in range(len(bounds) - 1))
        snapshots = (*self._snapshots, self.state)
        return Replay(self.state, tuple(self.actions), log, rounds, snapshots)


def replay(
    deck_a: Sequence[MatchCard],
    deck_b: Sequence[MatchCard],
    seed: int,
    actions: Iterable[Action],
) -> Replay:
    """Rebuild a match from its decks, seed and actions: final state, log by round, snapshots.

    Raises InvalidDeckError for a bad deck and IllegalActionError for an action the
    rules refuse.
    """
    recorder = Recorder(new_match(deck_a, deck_b, seed))
    for action in actions:
        recorder.play(action)
    return recorder.record()
