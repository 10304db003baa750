"""A supply roll in a player's words: the sum only when a modifier makes one ("supply
roll 2 against distance 3", not "supply roll 2 = 2 against distance 3")."""

from __future__ import annotations

from campaign.web.turnlog import record_words


def supply(die: int, modifiers: list[dict[str, object]], total: int) -> dict[str, object]:
    mods = "".join(f" {m['value']:+d} ({m['reason']})" for m in modifiers)
    return {
        "kind": "supply",
        "phase": "supply",
        "dice": [die],
        "modifiers": modifiers,
        "total": total,
        "outcome": "in supply",
        "text": f"A Company: supply roll {die}{mods} = {total} against distance 2 to Port "
        "Murray: in supply",
    }


def test_a_roll_with_nothing_added_shows_no_sum() -> None:
    assert record_words(supply(2, [], 2)) == (
        "A Company: supply roll 2 against distance 2 to Port Murray: in supply"
    )


def test_a_roll_with_a_modifier_shows_its_sum() -> None:
    record = supply(2, [{"value": 1, "reason": "supply company"}], 3)
    assert record_words(record) == (
        "A Company: supply roll 2 +1 (supply company) = 3 against distance 2 to Port "
        "Murray: in supply"
    )
