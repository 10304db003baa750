"""Seeded dice.

Randomness is always passed in: every function that rolls takes a ``Roller`` built
from a seed, so a battle or a campaign turn replays exactly. The roller counts every
die it throws; the engines put every die into their structured logs, and the tests
check that the two tallies agree, so no roll can go unrecorded.
"""

from __future__ import annotations

import hashlib
import random


class Roller:
    """A reproducible source of die rolls."""

    __slots__ = ("_random", "seed", "dice_rolled")

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"a seed must be an integer, not {seed!r}")
        self.seed = seed
        self._random = random.Random(seed)
        self.dice_rolled = 0

    @classmethod
    def resumed(cls, seed: int, dice_rolled: int) -> Roller:
        """A roller of ``seed`` that has thrown its first ``dice_rolled`` dice: it throws
        next what ``Roller(seed)`` throws after them (each die is one draw of its stream),
        and counts on from there."""
        if dice_rolled < 0:
            raise ValueError(f"cannot have thrown {dice_rolled} dice")
        roller = cls(seed)
        draw = roller._random.random
        for _ in range(dice_rolled):
            draw()
        roller.dice_rolled = dice_rolled
        return roller

    def roll(self, count: int = 1, sides: int = 6) -> tuple[int, ...]:
        """Roll ``count`` dice of ``sides`` faces; returns the faces in the order rolled."""
        if count < 0:
            raise ValueError(f"cannot roll {count} dice")
        if sides < 1:
            raise ValueError(f"a die needs at least one face, not {sides}")
        self.dice_rolled += count
        rand = self._random.random
        # random() * sides is uniform over the faces up to 2**-53 and far faster than randint.
        return tuple([int(rand() * sides) + 1 for _ in range(count)])

    def d6(self) -> int:
        """One six-sided die."""
        self.dice_rolled += 1
        return int(self._random.random() * 6) + 1

    def die(self, sides: int) -> int:
        """One die of ``sides`` faces (d8, d10, ...)."""
        if sides < 1:
            raise ValueError(f"a die needs at least one face, not {sides}")
        self.dice_rolled += 1
        return int(self._random.random() * sides) + 1


def derive_seed(seed: int, *labels: int | str) -> int:
    """A seed for a sub-stream (a battle of a turn, a run of an odds estimate).

    Stable across processes and Python versions (unlike ``hash``), so a campaign seed
    and a turn number always give the same battle seeds. 63 bits, so the seed fits a
    signed 64-bit database column (PostgreSQL's bigint, SQLite's integer).
    """
    text = ":".join([str(seed), *(str(label) for label in labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
