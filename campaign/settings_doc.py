"""Every campaign setting in the GM's words: its group, its label, what it does, and the
rule it carries out, quoted word for word from its source.

The settings form (campaign.forms.SettingsForm), the campaign creation form and the
public line of a settings change (``change_words``) read it. A new setting of
rules.campaign.state.Settings needs an entry here (tests/admin/test_settings_form.py
checks that every setting has one, and that every quote is in its source).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import names

# The sources, as the rulings name them (../shared/korona-rulings.md and its seeds/).
CAMPAIGN_RULES = "Korona campaign rules"  # seeds/003_0ed7a5eb76aa8839.txt
TACTICAL_RULES = "WWII in the Pacific rules"  # the same file, the tactical part
RULINGS = "Korona rulings"  # korona-rulings.md
# A ruling as the settings page names it: how Korona plays a rule that the campaign rules
# or the book leave open (the GM has the books, not our rulings file).
RULING_LABEL = "Korona's ruling"
OLD_BREED = "Old Breed South Pacific"  # seeds/000_9fe080d789b234b4.txt
SOURCE_FILES = {
    CAMPAIGN_RULES: "seeds/003_0ed7a5eb76aa8839.txt",
    TACTICAL_RULES: "seeds/003_0ed7a5eb76aa8839.txt",
    RULINGS: "korona-rulings.md",
    OLD_BREED: "seeds/000_9fe080d789b234b4.txt",
}


@dataclass(frozen=True, slots=True)
class Quote:
    source: str  # one of SOURCE_FILES
    section: str  # where in it: "3) Company supply", "§3", "17.0"
    text: str  # word for word
    # Our words before a quote that is an item of a list, so the line reads as a sentence
    # ("with fog of war on, a side knows" before the rulings' "enemy fighting companies
    # ... or orders"), where the item alone read as a fragment ending in ";".
    lead: str = ""

    @property
    def label(self) -> str:
        """Where the quote comes from, as the settings page names it: a book or the
        campaign rules by its title and section, which the GM can open at that place;
        one of our rulings as Korona's own, without the section of a file the GM never
        reads ("Korona rulings, §4" named that file)."""
        if self.source == RULINGS:
            return RULING_LABEL
        return f"{self.source}, {self.section}"


@dataclass(frozen=True, slots=True)
class SettingDoc:
    label: str
    explain: str
    quotes: tuple[Quote, ...] = ()
    # Korona's own choice, with no rule behind it: said instead of a quote.
    no_rule: str = ""


NO_RULE = "The game's rules say nothing of this: it is how you choose to run the campaign."

# The naval and aerial tables: the campaign rules' table is quoted whole, face by face
# (FACE_QUOTES), not a ruling on some of its faces (a walk-through read only 2 and 5).
WHOLE_TABLE = "The campaign rules' table is quoted below, each face under its row."

# Said by both the campaign's length and its objective: the rulings' sentence carried
# a note to the developers ("the turn limit (default 20)"), so it is said in words.
CAMPAIGN_END = (
    "The campaign rules set no end: a campaign ends when a side's base is held by the "
    "enemy, when a side has no fighting companies left, or after the last turn; then the "
    "side holding the objective wins."
)

# Quoted by the table's width and its depth: the ruling's words without its note to the
# developers ("(setting: width and depth in feet)"), which a walk-through read as a rule.
TABLE_SIZE = Quote(RULINGS, "§4", "Table: 3 ft × 3 ft, a grid of 1-ft squares")

DOCS: dict[str, SettingDoc] = {
    # Battles
    "battle_mode": SettingDoc(
        "How battles are fought",
        "Fought by the rules at once: the computer fights each battle as soon as the turn "
        "is played. Fought on the table: the turn waits while you fight each battle on a "
        "real table and enter its result (winner and losses).",
        no_rule=NO_RULE,
    ),
    "unentered_tabletop": SettingDoc(
        "A tabletop battle still without a result at the next deadline",
        "Waits for the game master's result: the campaign waits for you, however long. Is "
        "fought by the rules: the computer fights it, so a scheduled campaign keeps going. "
        "With no schedule there is no deadline: the battle waits for your result either way.",
        no_rule=NO_RULE,
    ),
    "ruleset": SettingDoc(
        "Rule set of the battles",
        "The tactical rules the computer fights battles with, and the battle sheet is "
        "printed for. Korona is the campaign's own rules; Force on Force fights the same "
        "battles on the same battlefield with other dice.",
        quotes=(
            Quote(
                RULINGS,
                "§5",
                "Force on Force: an alternative tactical resolution for the same battles, "
                "chosen per campaign.",
            ),
        ),
    ),
    "tactical_turn_limit": SettingDoc(
        "Longest battle, in battle turns",
        "A battle that nobody has lost by then ends: the side that lost the smaller share "
        "of its stands wins.",
        quotes=(
            Quote(
                RULINGS,
                "§4",
                "After 12 turns the side with the smaller fraction lost wins; a tie goes to "
                "the defender.",
            ),
        ),
    ),
    "table_width_ft": SettingDoc(
        "Battle table width, in feet",
        "How wide the table of every battle is, from 1 to 12 feet (1-foot squares, each "
        "rolled on the terrain table). Default: 3.",
        quotes=(TABLE_SIZE,),
    ),
    "table_depth_ft": SettingDoc(
        "Battle table depth, in feet",
        "How deep the table of every battle is, from the defender's edge to the "
        "attacker's, from 1 to 12 feet. Default: 3.",
        quotes=(TABLE_SIZE,),
    ),
    "landform_going": SettingDoc(
        "Going of each landform",
        "How hard each kind of ground of the battle table is to cross: good, rough or bad "
        "(woods keep theirs: light rough, heavy bad). Korona battles read it; Force on "
        f"Force battles keep their own, with {names.landform('mud_rocks_swamp')} bad.",
        quotes=(
            Quote(
                RULINGS,
                "§4",
                "Going: heavy woods, steep ridges, swamp = bad; light woods, mud/rocks, "
                "river/creek, hills = rough; the rest good.",
            ),
        ),
    ),
    # Fog of war
    "fog_of_war": SettingDoc(
        "Fog of war",
        "On: each side sees its own companies in full, and the enemy only where its "
        "companies can see, as weak, average or strong. Off: both sides see everything.",
        quotes=(
            Quote(
                RULINGS,
                "§6",
                "enemy fighting companies in areas its own companies occupy or are linked "
                "to, each as a strength band (weak/average/strong), without name, stands, "
                "quality, supply or orders",
                lead="with fog of war on, a side knows",
            ),
        ),
    ),
    # Old Breed options
    "combat_events": SettingDoc(
        "Combat Events (Old Breed 17.0)",
        "A squad or weapon team whose fire shows a 1 on its first die may set off an "
        "event from the Combat Event tables (each face is set under Settings).",
        quotes=(
            Quote(
                OLD_BREED,
                "17.0",
                "Whenever a Squad or WT rolls a ‘1’ when firing on another unit during the "
                "Operations Phase, there is the possibility of a Combat Event.",
            ),
            Quote(
                RULINGS,
                "§5",
                "Combat Events: when a squad's or weapon team's fire action shows a natural 1 "
                "on its first die, roll d10: 1 the firer's side rolls on the Combat Event "
                "Table, 2 the other side does, 3 the Japanese Event Table (only with Japanese "
                "units present), 4–10 nothing.",
            ),
        ),
    ),
    "combat_event_table": SettingDoc(
        "Combat Event Table",
        "What happens on each face of the d6, when a side rolls on it.",
        no_rule="The book's own table is not copied here: these faces are Korona's own "
        "entries, which you may change to match your copy of Old Breed South Pacific.",
    ),
    "japanese_event_table": SettingDoc(
        "Japanese Event Table",
        "What happens on each face of the d6, when the Japanese roll on it.",
        quotes=(
            Quote(
                OLD_BREED,
                "17.0",
                "If the result is a 3, then roll on the Japanese Event Table. If the scenario "
                "does not include Japanese units, then ignore a roll of a 3.",
            ),
        ),
    ),
    "fog_of_war_cup": SettingDoc(
        "Fog of War cup (Old Breed 16.2)",
        "A side's extra companies in a battle do not start on the table: one is drawn at "
        "random each battle turn and placed as the rule says.",
        quotes=(
            Quote(
                OLD_BREED,
                "16.2",
                "If your side receives FOW reinforcements, place them in a cup. You may draw "
                "one random unit from the cup each turn, during either side’s Ops Range, and "
                "immediately place it on the board.",
            ),
            Quote(
                RULINGS,
                "§3",
                "With several companies on a side, pair them strongest to strongest; a side's "
                "extra companies join its largest battle (with the Fog of War cup "
                "option, as cup reinforcements).",
            ),
        ),
    ),
    # The campaign's end
    "turn_limit": SettingDoc(
        "Campaign length, in turns",
        "After this many turns the campaign ends, and the side holding the objective wins. "
        "Default: 20.",
        no_rule=CAMPAIGN_END,
    ),
    "objective": SettingDoc(
        "Objective",
        "The area whose holder wins when the campaign ends. None: nobody wins at the end.",
        no_rule=CAMPAIGN_END,
    ),
    # Supply
    "out_of_supply_turns_before_losses": SettingDoc(
        "Turns out of supply before a company loses stands",
        "A company out of supply this many turns in a row loses half its supply roll in "
        "stands, each turn until it is in supply again.",
        quotes=(
            Quote(
                CAMPAIGN_RULES,
                "3) Company supply",
                "If a company is out of supply for two consecutive turns, then it will lose "
                "a number of stands equal to half the d6 supply roll. This will continue "
                "until the company is in supply again.",
            ),
        ),
    ),
    "supply_replaces_battle_losses": SettingDoc(
        "Supply replaces battle losses too",
        "On: a company in supply gets back stands killed in battle as well as those lost "
        "out of supply. Off: only those lost out of supply. Default: on.",
        quotes=(
            Quote(
                CAMPAIGN_RULES,
                "3) Company supply",
                "When a company is in supply it will gain a number of stands equal to half "
                "the d6 supply roll to replace any stands that it has lost so far.",
            ),
            Quote(
                RULINGS,
                "§3",
                '"Replace any stands that it has lost so far" means every lost stand, those '
                "killed in battle included",
            ),
        ),
    ),
    "establishment": SettingDoc(
        "Stands of a fighting company at full strength",
        "Supply never brings a company above this many stands.",
        quotes=(Quote(RULINGS, "§2", "Establishment of a fighting company: 12 stands."),),
    ),
    "supply_company_bonus": SettingDoc(
        "Bonus of a supply company nearby",
        "Added to the supply roll of a fighting company in or next to the area of a "
        "friendly supply company.",
        quotes=(
            Quote(
                RULINGS,
                "§3",
                "Supply-company support: a fighting company in the same area as a friendly "
                "supply company, or in an area linked to it, gets +1 on its supply roll.",
            ),
        ),
    ),
    "rough_tracks": SettingDoc(
        "Rough tracks",
        "Companies on these tracks take the penalty below on their supply roll.",
        quotes=(
            Quote(
                CAMPAIGN_RULES,
                "A Bastard of a track",
                "The Southern track through Erida and Kerna up to Munara is barely one "
                "person wide and often covered in fallen trees, mud and mosquitos. Troops "
                "using this route count -1 to their supply roll.",
            ),
        ),
    ),
    "rough_track_penalty": SettingDoc(
        "Penalty of a rough track",
        "Taken off the supply roll of a company on a rough track.",
        quotes=(
            Quote(
                RULINGS,
                "§1",
                '"A Bastard of a track": a company in Erida, Kerna or Munara has −1 on its '
                "supply roll.",
            ),
        ),
    ),
    "airdrop_side": SettingDoc(
        "Side that can airdrop supplies",
        "None: nobody airdrops.",
        quotes=(
            Quote(
                CAMPAIGN_RULES,
                "Airdrop supply",
                "Australians in zone 6 may count Korona in zone 5 as their home base on the "
                "following conditions:",
            ),
        ),
    ),
    "airdrop_zone": SettingDoc(
        "Zone of an airdrop",
        "A company of that side in this zone may count the airdrop area as its base.",
        quotes=(
            Quote(
                RULINGS,
                "§3",
                "Airdrop: an Australian company in a zone-6 area counts Korona as its base "
                "if a friendly supply company is in its area and the RAAF has at least one "
                "plane (Buffalo or Hurricane).",
            ),
        ),
    ),
    "airdrop_base": SettingDoc(
        "Airdrop area",
        "The area such a company counts as its base. None: no airdrop.",
        quotes=(
            Quote(
                CAMPAIGN_RULES,
                "Airdrop supply",
                "Australians in zone 6 may count Korona in zone 5 as their home base on the "
                "following conditions:",
            ),
        ),
    ),
    # Naval events
    "naval_trigger": SettingDoc(
        "Naval event on a roll of",
        "Each turn a d6 is rolled: on this number or more, a second d6 is rolled on the "
        'naval table below. Default: 6 (the campaign rules say "on a roll of d6", read as a 6).',
        quotes=(
            Quote(
                CAMPAIGN_RULES,
                "1) Naval events",
                "Roll a d6. On a roll of d6 an event has occurred at sea. Roll a further d6 "
                "and consult the table:",
            ),
        ),
    ),
    "ship_absence_blocks_supply": SettingDoc(
        "A ship away blocks supply every turn",
        "Off: a ship's departure stops its side's supply on that turn only. On: on every "
        "turn until a face of the table brings it back. Default: off.",
        quotes=(
            Quote(
                RULINGS,
                "§3",
                "Naval 3 and 4: that side alone has no company in supply this turn. The "
                "ship's absence is tracked until result 1 (or 6) brings it back",
            ),
        ),
    ),
    "naval_table": SettingDoc(
        "Naval event table",
        "What each face of the second d6 does, and the line the players read.",
        no_rule=WHOLE_TABLE,
    ),
    # Aerial events
    "aerial_trigger": SettingDoc(
        "Aerial event on a roll of",
        "Each turn a d6 is rolled: on this number or more, a second d6 is rolled on the "
        'aerial table below. Default: 6 (the campaign rules say "on a roll of d6", read as a 6).',
        quotes=(
            Quote(
                CAMPAIGN_RULES,
                "2) Aerial events",
                "Roll a d6. On a roll of d6 an aerial event has occurred. Roll a further d6 "
                "and consult the table:",
            ),
        ),
    ),
    "max_bombers": SettingDoc(
        "Most Hurricane-bombers a side can have",
        "An aerial event that sends one more does nothing at this number.",
        quotes=(Quote(RULINGS, "§3", "Aerial 4: one Hurricane-bomber arrives (at most one)."),),
    ),
    "aerial_table": SettingDoc(
        "Aerial event table",
        "What each face of the second d6 does, and the line the players read.",
        no_rule=WHOLE_TABLE,
    ),
}

# The rule behind a landform's row of the going table where its name alone says too
# little (the names are the battle pages': rules.names.LANDFORM_NAMES).
LANDFORM_QUOTES = {
    "hill": "In a plains area ridges become flat ground and steep ridges become hills.",
}

# The form's groups, in order: (title, what they are about, the settings).
GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "Battles",
        "How the battles a turn brings are fought.",
        (
            "battle_mode",
            "unentered_tabletop",
            "ruleset",
            "tactical_turn_limit",
            "table_width_ft",
            "table_depth_ft",
            "landform_going",
        ),
    ),
    (
        "Fog of war",
        "What each side may see of the other.",
        ("fog_of_war",),
    ),
    (
        "Old Breed options",
        "Optional rules from Old Breed South Pacific, under either rule set.",
        ("combat_events", "combat_event_table", "japanese_event_table", "fog_of_war_cup"),
    ),
    (
        "End of the campaign",
        "When the campaign ends and who wins.",
        ("turn_limit", "objective"),
    ),
    (
        "Supply",
        "The supply roll each fighting company makes every turn.",
        (
            "out_of_supply_turns_before_losses",
            "supply_replaces_battle_losses",
            "establishment",
            "supply_company_bonus",
            "rough_tracks",
            "rough_track_penalty",
            "airdrop_side",
            "airdrop_zone",
            "airdrop_base",
        ),
    ),
    (
        "Naval events",
        "The first phase of every turn.",
        ("naval_trigger", "ship_absence_blocks_supply", "naval_table"),
    ),
    (
        "Aerial events",
        "The second phase of every turn.",
        ("aerial_trigger", "max_bombers", "aerial_table"),
    ),
)

# The choices a new campaign asks for at once (the rest keep the scenario's values).
MAIN_CHOICES = ("battle_mode", "ruleset", "fog_of_war", "combat_events", "fog_of_war_cup")

# The original naval and aerial tables, face by face (Korona campaign rules, 1) and 2)):
# quoted beside each row of the default tables.
NAVAL_FACES = {
    1: "1 = An Australian convoy has fought off a Japanese attack. No impact in game terms. "
    "If HMAS Pitcairn had previously sailed away, it has returned. Phew!",
    2: "2 =  An Australian convoy has been attacked by the Japanese. As a result forward "
    "companies will not benefit from having a supply company supporting them.",
    3: "3 = An Australian convoy has been attacked and HMAS Pitcairn has had to depart Port "
    "Murray. No companies are in supply this turn.",
    4: "4 = A Japanese convoy has been attacked and IJN Uesugi has had to depart Kilu. No "
    "companies are in supply this turn.",
    5: "5 = A Japanese convoy has been attacked by the Allies. As a result forward companies "
    "will not benefit from having a supply company supporting them.",
    6: "6 = A Japanese convoy has fought off an Allied attack. No impact in game terms. If "
    "IJN Uesugi had previously sailed away, it has returned. Phew!",
}
AERIAL_FACES = {
    1: "1 = A raid on Port Murray airfield. One Buffalo is destroyed.",
    2: "2 = An air battle over Korona. Two Buffalos have been lost.",
    3: "3 = The Buffalos have been recalled to help the fight elsewhere.",
    4: "4 = reinforcement. A Hurricane-bomber has been sent to help out.",
    5: "5 = strafing attack on the Korona track. One Japanese company will not be in supply "
    "this turn.",
    6: "6 = Attack on Kilu. HQ is down and no Japanese company will be in supply this turn.",
}
FACE_QUOTES = {"naval_table": NAVAL_FACES, "aerial_table": AERIAL_FACES}

# The effects of the naval and aerial tables (rules.campaign.scenario.EVENT_EFFECTS).
CAMPAIGN_EFFECTS = {
    "ship_returns": "the side's ship is back in its port",
    "no_supply_support": "the side's fighting companies get no supply-company support",
    "ship_departs": "the side's ship departs: none of its companies is in supply",
    "planes_lost": "the side loses Buffalos (how many: the count)",
    "planes_recalled": "all the side's Buffalos leave for good",
    "bomber_arrives": "a Hurricane-bomber arrives for the side",
    "strafe_company": "strafing: the side's fighting company on the track nearest the enemy "
    "base is out of supply",
    "side_out_of_supply": "none of the side's companies is in supply",
    "none": "no effect in game terms",
}
# The effects of the Combat Event tables (rules.oldbreed.EFFECTS).
COMBAT_EFFECTS = {
    "nothing": "nothing happens",
    "pin_own_squad": "one of the rolling side's squads is pinned",
    "suppress_own_weapon": "one of the rolling side's weapon teams is suppressed",
    "rally_own": "one of the rolling side's pinned or suppressed stands rallies",
    "return_lost_squad": "one lost squad of the rolling side rejoins (it still counts as lost)",
    "sniper_appears": "a hidden sniper of the rolling side appears",
    "sniper_shot": "a sniper of the rolling side fires once and vanishes",
}
EVENT_TABLES = ("naval_table", "aerial_table")
COMBAT_TABLES = ("combat_event_table", "japanese_event_table")


def value_words(key: str, value: Any) -> str:
    """A setting's value as the GM and the players read it."""
    if key == "battle_mode":
        return names.battle_mode(value)
    if key == "ruleset":
        return names.ruleset(value)
    if key == "unentered_tabletop":
        return names.words(value, names.UNENTERED_TABLETOP_NAMES)
    if key == "airdrop_side":
        return names.side(value, none="none")
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Mapping):  # a map of keys to values: each key in words
        said = names.landform if key == "landform_going" else names.words
        parts = (f"{said(str(k))} {value_words(key, v)}" for k, v in value.items())
        return names.join(parts) or "as the rulings say"
    if isinstance(value, list | tuple):
        return names.join(str(v) for v in value) or "none"
    if value is None or value == "":
        return "none"
    return str(value)


def _table_change(key: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    effects = CAMPAIGN_EFFECTS if key in EVENT_TABLES else COMBAT_EFFECTS
    faces = []
    for face in sorted(set(before) | set(after), key=str):
        old, new = before.get(face) or {}, after.get(face) or {}
        if old == new:
            continue
        said = new.get("text") or names.words(new.get("effect"), effects)
        line = f"face {face}: {said.rstrip('.')}"
        faces.append(line)
    return f"{DOCS[key].label}: {names.join(faces)}."


def change_words(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """The public line of a settings change, in words: 'Settings changed. How battles are
    fought: fought on the table (the game master enters each result) (before: fought by
    the rules at once).'. Empty when nothing changed."""
    parts = []
    for key in DOCS:
        if key not in after or before.get(key) == after[key]:
            continue
        if key in (*EVENT_TABLES, *COMBAT_TABLES):
            parts.append(_table_change(key, before.get(key) or {}, after[key]))
            continue
        label = DOCS[key].label
        parts.append(
            f"{label}: {value_words(key, after[key])} (before: "
            f"{value_words(key, before.get(key))})."
        )
    return " ".join(["Settings changed.", *parts]) if parts else ""


def changed_names(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The names of the settings a change changed, in the order ``change_words`` says
    them: "Battle table width, in feet"."""
    return [DOCS[key].label for key in DOCS if key in after and before.get(key) != after[key]]


# The line settings changes had before they were said in words: "settings changed:
# battle_mode, fog_of_war". Such a row's details keep the values, so it is said again.
_KEYS_LINE = "settings changed: "


def adjustment_what(what: str, details: Mapping[str, Any] | None) -> str:
    """A GM adjustment's line as the log shows it, a sentence from a capital letter: a
    settings change of the old kind (its keys listed) said in words from its details; any
    other line as it is written ("Rolled back to the start of turn 2", kept so in rows
    written before the rule as "rolled back ...")."""
    if what.startswith(_KEYS_LINE) and isinstance(details, Mapping) and "after" in details:
        return change_words(details.get("before") or {}, details["after"]) or (
            "Settings saved, nothing changed."
        )
    if isinstance(details, Mapping) and details.get("kind") == "player":
        return _spectator_line(what, str(details.get("player") or "")) or what
    return names.as_line(what)


def _spectator_line(what: str, player: str) -> str:
    """A spectator's removal as rows written before 7 December 2026 said it, "sue no
    longer follows Korona as a spectator.", in today's words, "The spectator sue no longer
    follows Korona.": a line is a sentence from a capital letter, and made one the old
    line read "Sue", a name its owner spells "sue". Empty for any other line."""
    head, tail = f"{player} no longer follows ", " as a spectator."
    if not player or not what.startswith(head) or not what.endswith(tail):
        return ""
    return f"The spectator {player} no longer follows {what[len(head) : -len(tail)]}."
