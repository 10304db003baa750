"""Where every die of a campaign turn comes from, and the commitment that pins it.

A turn is driven by one *turn seed* (by default ``derive_seed(campaign seed, "turn", N)``).
It is split into four *branches*: ``public`` (the naval and aerial tables and every
battle of the turn), ``initiative`` (both sides' initiative dice) and one per side (that
side's supply rolls). Each roll group then has its own *stream*, a ``Roller`` seeded
from its branch and a public label: ``public/naval``, ``public/aerial``,
``public/battle:<key>``, ``<side>/supply:<company>``, ``initiative/<side>``.

Before the turn each branch seed is committed to with SHA-256 over the seed and a fresh
random 256-bit salt (never derived from anything), and the four commitments are hashed
into the turn's commitment. After the turn a side is shown the public branch and its
own (seed and salt): enough to recompute the tables, the battles and its supply rolls,
and nothing that gives it the enemy's dice, which would tell it the enemy's supply
(section 6 of the rulings). The initiative branch is shown to nobody but the GM until
the campaign ends: with it a side would recompute its own die of every round, so learn
of a tied round (left out of its view) and from it the enemy's total. Once the campaign
ends every branch and the turn seed itself are shown, and anyone can check that the
branches derive from it, and it from the campaign seed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping

from rules.dice import Roller, derive_seed

PUBLIC = "public"
INITIATIVE = "initiative"  # both sides' initiative dice: hidden until the campaign ends
SALT_HEX_DIGITS = 64  # 256 bits: a commitment reveals nothing of the seed it hides
_SALT = re.compile(r"^[0-9a-f]{64}$")


def default_turn_seed(campaign_seed: int, number: int) -> int:
    """The seed of turn ``number`` unless the GM changed it: the campaign seed's."""
    return derive_seed(campaign_seed, "turn", number)


def branches(sides: Iterable[str]) -> tuple[str, ...]:
    """The branches of a turn: the public one, then the initiative one and one per side
    (sorted)."""
    return _in_order({INITIATIVE, *sides})


def _in_order(names: Iterable[str]) -> tuple[str, ...]:
    """Branch names as a commitment lists them: the public one first, then the rest
    sorted."""
    return (PUBLIC, *sorted(set(names) - {PUBLIC}))


def branch_seed(turn_seed: int, branch: str) -> int:
    return derive_seed(turn_seed, "branch", branch)


def stream_seed(branch_seed_value: int, label: str) -> int:
    return derive_seed(branch_seed_value, label)


def stream_name(branch: str, label: str) -> str:
    return f"{branch}/{label}"


def split_stream(name: str) -> tuple[str, str]:
    """``"australian/supply:1st Company"`` -> ``("australian", "supply:1st Company")``."""
    branch, _, label = name.partition("/")
    return branch, label


def battle_label(key: str) -> str:
    return f"battle:{key}"


def battle_seed(turn_seed: int, key: str) -> int:
    """The seed a battle of the turn is fought from: a stream of the public branch."""
    return stream_seed(branch_seed(turn_seed, PUBLIC), battle_label(key))


def check_salt(salt: object) -> str:
    if not isinstance(salt, str) or not _SALT.match(salt):
        raise ValueError("a salt is 64 lowercase hexadecimal digits (256 bits)")
    return salt


def commit(seed: int, salt: object) -> str:
    """SHA-256 (hex) of ``korona-seed:<seed>:<salt>``: binds the seed, hides it.

    ``salt`` is checked here (a ValueError unless 64 lowercase hex digits), so a value read
    from a file may be passed as it is."""
    text = f"korona-seed:{int(seed)}:{check_salt(salt)}"
    return hashlib.sha256(text.encode()).hexdigest()


def turn_commitment(branch_commitments: Mapping[str, str]) -> str:
    """The one commitment of a turn: SHA-256 over its branches' commitments, in order."""
    lines = "".join(
        f"{branch}={branch_commitments[branch]}\n" for branch in _in_order(branch_commitments)
    )
    return hashlib.sha256(f"korona-turn\n{lines}".encode()).hexdigest()


class TurnDice:
    """The streams of one turn, each made the first time it is asked for.

    A ``scripted`` roller (tests set their dice that way) serves every stream instead.
    ``rolled`` counts every die thrown, so the turn can check that each one was logged."""

    __slots__ = ("turn_seed", "_branches", "_streams", "_scripted", "_scripted_start")

    def __init__(self, turn_seed: int, *, scripted: Roller | None = None) -> None:
        self.turn_seed = turn_seed
        self._branches: dict[str, int] = {}
        self._streams: dict[str, Roller] = {}
        self._scripted = scripted
        self._scripted_start = scripted.dice_rolled if scripted else 0

    def stream(self, branch: str, label: str) -> tuple[Roller, str]:
        """The roller of a stream and its name, as the log records it."""
        name = stream_name(branch, label)
        if self._scripted is not None:
            return self._scripted, name
        roller = self._streams.get(name)
        if roller is None:
            if branch not in self._branches:
                self._branches[branch] = branch_seed(self.turn_seed, branch)
            roller = self._streams[name] = Roller(stream_seed(self._branches[branch], label))
        return roller, name

    @property
    def rolled(self) -> int:
        if self._scripted is not None:
            return self._scripted.dice_rolled - self._scripted_start
        return sum(roller.dice_rolled for roller in self._streams.values())
