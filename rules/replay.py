"""A battle's replay from its log: the deployment, then one frame per phase of every turn.

The frames are built from the log records' structured fields only (a deploy's
``positions``, a move's ``to``, a fire's ``effect``, an event's ``stand``, ``becomes``
and ``to``), never from their words; the words of each frame's lines come from the
caller (``words``), which names the squares as its page does. Positions are the
engines': whole inches from the defender's left corner. Rule sets differ in one thing
here: whether pinned and suppressed end with the turn (``statuses_end_with_turn``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Record = Mapping[str, Any]

# Fire effects after which the target is off the table: Korona's kill, Force on Force's
# wipe-out and a Shaken unit leaving the battle.
LOST_EFFECTS = frozenset({"killed", "wiped out", "shaken: leaves the battle"})
STATUS_EFFECTS = frozenset({"pinned", "suppressed"})


@dataclass(slots=True)
class _Board:
    positions: dict[str, list[int]]
    lost: set[str] = field(default_factory=set)
    status: dict[str, str] = field(default_factory=dict)
    hidden: set[str] = field(default_factory=set)

    def kill(self, stand: str, killed: list[str]) -> None:
        if stand in self.positions and stand not in self.lost:
            self.lost.add(stand)
            self.status.pop(stand, None)
            killed.append(stand)

    def set_status(self, stand: str, status: str) -> None:
        if status == "ok":
            self.status.pop(stand, None)
        elif stand not in self.lost:
            self.status[stand] = status


def _combat_event(board: _Board, record: Record, killed: list[str]) -> None:
    """An event that changed a stand names it (``stand``), what it became (``becomes``:
    killed, pinned, suppressed or ok) and, when it put the stand on the table, where
    (``to``) and whether hidden (rules.oldbreed.EventOutcome)."""
    stand, becomes = record.get("stand"), record.get("becomes")
    if not isinstance(stand, str) or becomes is None:
        return
    if record.get("to") is not None:
        board.positions[stand] = list(record["to"])
        board.lost.discard(stand)
        if record.get("hidden"):
            board.hidden.add(stand)
    elif becomes == "killed":
        board.kill(stand, killed)
    else:
        board.set_status(stand, becomes)


def _apply_move(board: _Board, record: Record, killed: list[str], moves: list[Any]) -> None:
    stand = record["stand"]
    start = board.positions.get(stand)
    board.positions[stand] = list(record["to"])
    moves.append([stand, list(record.get("from") or start or record["to"]), record["to"]])


def _apply_fire(board: _Board, record: Record, killed: list[str], moves: list[Any]) -> None:
    if record.get("revealed") and isinstance(record.get("firer"), str):
        board.hidden.discard(record["firer"])
    effect = record.get("effect", "none")
    if effect in LOST_EFFECTS:
        board.kill(record["target"], killed)
    elif effect in STATUS_EFFECTS:
        board.set_status(record["target"], effect)
    for caught in record.get("blast", ()):
        if caught["effect"] in LOST_EFFECTS:
            board.kill(caught["stand"], killed)
        else:
            board.set_status(caught["stand"], caught["effect"])


def _apply_assault(board: _Board, record: Record, killed: list[str], moves: list[Any]) -> None:
    for stand in record.get("removed", ()):
        board.kill(stand, killed)


def _apply_caught(board: _Board, record: Record, killed: list[str], moves: list[Any]) -> None:
    board.kill(record["stand"], killed)


def _apply_rally(board: _Board, record: Record, killed: list[str], moves: list[Any]) -> None:
    if record.get("outcome") == "rallied":
        board.set_status(record["stand"], "ok")


def _apply_combat_event(board: _Board, record: Record, killed: list[str], moves: list[Any]) -> None:
    _combat_event(board, record, killed)


# What each kind of record does to the board; a kind not listed changes nothing on it.
_APPLY: dict[str, Callable[[_Board, Record, list[str], list[Any]], None]] = {
    "move": _apply_move,
    "cup_place": _apply_move,
    "fire": _apply_fire,
    "support": _apply_fire,
    "combat_event_fire": _apply_fire,
    "assault": _apply_assault,
    "caught": _apply_caught,
    "rally": _apply_rally,
    "combat_event": _apply_combat_event,
}


def _apply(board: _Board, record: Record, killed: list[str], moves: list[Any]) -> None:
    handler = _APPLY.get(record["kind"])
    if handler is not None:
        handler(board, record, killed, moves)


def replay_frames(
    log: Sequence[Record], *, words: Callable[[Record], str], statuses_end_with_turn: bool
) -> list[dict[str, Any]]:
    """The steps of the replay: the deployment, then one step per phase of every turn.

    Each frame holds every stand on the table by then with its position (the deploy
    record's, then each move's ``to``), the stands lost so far, the pinned and
    suppressed, the hidden, the moves and the losses of that step and its lines in
    ``words``. A log without a deploy record (a battle fought at the table) has none.
    """
    deploy = next((r for r in log if r.get("kind") == "deploy"), None)
    if deploy is None:
        return []
    board = _Board(positions={k: list(v) for k, v in deploy["positions"].items()})
    board.hidden = set(deploy.get("hidden") or ())
    frames = [_frame(board, 0, "deployment", [], [], [words(deploy)])]
    start = list(log).index(deploy) + 1
    frames += _phase_frames(board, log[start:], words, statuses_end_with_turn)
    for index, frame in enumerate(frames):
        frame["step"] = index
    return frames


def _phase_frames(
    board: _Board,
    log: Sequence[Record],
    words: Callable[[Record], str],
    statuses_end_with_turn: bool,
) -> list[dict[str, Any]]:
    """One frame per phase of every turn after the deployment, in the log's order."""
    frames: list[dict[str, Any]] = []
    turn: int | None = None
    phase: str | None = None
    killed: list[str] = []
    moves: list[Any] = []
    lines: list[str] = []
    for record in log:
        key = (int(record.get("turn", 0)), str(record.get("phase", "")))
        if (turn, phase) != key and lines:
            frames.append(_frame(board, turn or 0, phase or "", killed, moves, lines))
            killed, moves, lines = [], [], []
        if turn is not None and key[0] != turn and statuses_end_with_turn:
            board.status.clear()
        turn, phase = key
        _apply(board, record, killed, moves)
        lines.append(words(record))
    if lines:
        frames.append(_frame(board, turn or 0, phase or "", killed, moves, lines))
    return frames


def _frame(
    board: _Board, turn: int, phase: str, killed: list[str], moves: list[Any], lines: list[str]
) -> dict[str, Any]:
    return {
        "turn": turn,
        "phase": phase,
        "positions": {k: list(v) for k, v in sorted(board.positions.items())},
        "lost": sorted(board.lost),
        "status": dict(sorted(board.status.items())),
        "hidden": sorted(board.hidden),
        "killed": list(killed),
        "moves": list(moves),
        "lines": list(lines),
    }
