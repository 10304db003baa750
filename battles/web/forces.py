"""A battle's forces by their companies, in words: the GM's battle page and result form,
and the GM's email of the battles waiting for their tabletop results
(``notifications.services``). The GM reads every battle whole: nothing here is fogged."""

from __future__ import annotations

from battles.models import Battle
from rules import names


def stands_words(counts: dict[str, int]) -> str:
    """Stand counts in words, in the units' own order ('1 commander, 9 rifle squads and
    1 HMG'), whatever order PostgreSQL's jsonb gave the spec's keys back in."""
    return names.stands(names.in_unit_order(counts))


def force_companies(battle: Battle, role: str) -> list[tuple[str, str]]:
    """The companies of the battle's ``role`` ("attacker"), the first leading, each with
    its stands in words as they came to the table: the spec's own per-company stands
    when it has them, a lone company's are its force's; else, while the battle waits,
    each company's stands now (carriers stay off the table); once fought, "" (its stands
    have moved on since; the force's are on the report)."""
    force = battle.spec[role]
    listed = force.get("companies")
    if listed:
        return [(str(c["name"]), stands_words(c["stands"])) for c in listed]
    rows = list(
        (battle.attackers if role == "attacker" else battle.defenders).prefetch_related(
            "stand_counts"
        )
    )
    name = str(force.get("name", role))
    if len(rows) <= 1:
        together = dict(force["stands"])
        for unit, count in (force.get("reinforcements") or {}).items():
            together[unit] = together.get(unit, 0) + count
        return [(rows[0].name if rows else name, stands_words(together))]
    rows.sort(key=lambda row: (name.find(row.name) < 0, name.find(row.name)))
    if battle.status != Battle.Status.PENDING:
        return [(row.name, "") for row in rows]
    return [
        (
            row.name,
            stands_words(
                {s.unit_type: s.held for s in row.stand_counts.all() if s.unit_type != "carrier"}
            ),
        )
        for row in rows
    ]


def company_names(battle: Battle, role: str) -> list[str]:
    """The names of the companies of the battle's ``role``, the first leading, as
    ``force_companies`` lists them, without their stands: read from the spec, else from
    the battle's companies (``.all()``: a list prefetches them, a query for them all)."""
    force = battle.spec[role]
    listed = force.get("companies")
    if listed:
        return [str(c["name"]) for c in listed]
    rows = list((battle.attackers if role == "attacker" else battle.defenders).all())
    name = str(force.get("name", role))
    if not rows:
        return [name]
    rows.sort(key=lambda row: (name.find(row.name) < 0, name.find(row.name)))
    return [row.name for row in rows]


def force_name(battle: Battle, role: str) -> str:
    """The force by its companies, by name: "A Company, B Company and C Company
    (militia)" (the spec's name joins them all with "and", strongest first)."""
    return names.join(names.by_name(company_names(battle, role)))


def who_attacks_whom(battle: Battle) -> str:
    """ "the Japanese 1st Company attacks the Australians' A Company": the battle as the
    GM's email of the battles waiting and the admin (its home, the campaign's page, the
    Battles list) name it, so two battles in one area are told apart. Each force by its
    side's name in the campaign (``campaign.sides``: a list prefetches them), never a
    side's key ("japanese attack australian"), then its companies; always in that form
    (a walk-through read "B Company (Australians)" beside "the Australians' C Company
    (militia)" in one list)."""
    sides = {side.key: side.name for side in battle.campaign.sides.all()}
    attackers, defenders = force_name(battle, "attacker"), force_name(battle, "defender")
    attacking = sides.get(battle.attacker_side) or names.side(battle.attacker_side)
    defending = sides.get(battle.defender_side) or names.side(battle.defender_side)
    attack = names.verb(attackers, "attacks", "attack")
    return f"{names.owners(attacking)} {attackers} {attack} {names.owners(defending)} {defenders}"


def battle_words(battle: Battle) -> str:
    """The battle where the GM picks one out of a list: its area, then who attacks whom
    ("At Korona: the Japanese 1st Company attacks the Australians' A Company"), as the
    GM's email lists them. "At": the first word is the area, not the campaign (which may
    share its name, and has its own column)."""
    return f"At {battle_place(battle)}"


def battle_place(battle: Battle) -> str:
    """``battle_words`` after "the battle at" in a sentence: "the battle at Korona: the
    Japanese 1st Company attacks the Australians' A Company"."""
    return f"{battle.area.name}: {who_attacks_whom(battle)}"
