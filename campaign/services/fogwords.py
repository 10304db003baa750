"""What a GM's own words would tell a side that the fog of war hides from it.

A GM change's reason reaches every reader word for word (the turns page, the API, the
emails and webhooks), the enemy's players and the spectators too: the fog hides an enemy
company's name and numbers from the change's line, never from the reason. Before a GM
form saves one, ``hidden_in_text`` reads it for what some reader may not know now (rulings
section 6), so the form can ask the GM to confirm first:

- a company by its name ("3rd Company", "the Japanese 3rd Company", "C Company" for
  "C Company (militia)"), unless every reader sees it in full: a side sees only its own
  companies by name, a glimpse of an enemy in sight has none, and a spectator sees none;
- an area together with a side whose companies stand there out of a reader's sight ("a
  Japanese company in Korona was hit"): where an enemy stands, unseen;
- for a change of who holds an area (``holder``), the new holder's side named while the
  area is out of a reader's sight: that reader's log says only that it changed.

It reads words, not meaning: "3rd Company" written as "the third company" passes, and a
company named where no reader is misled (fog of war off, the campaign ended) is fine.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from campaign.models import SPECTATOR, Campaign
from campaign.services.snapshot import load_snapshot
from rules import names
from rules.campaign import visibility as fog
from rules.campaign.state import CampaignState

SPECTATORS = "spectators"


@dataclass(frozen=True, slots=True)
class Revealed:
    """One thing the text tells that some readers may not know: ``what`` in the GM's
    words, ``readers`` by name ("the Australians", "spectators")."""

    what: str
    readers: tuple[str, ...]

    def words(self) -> str:
        return f"{self.what}, which {names.join(self.readers)} do not see"


def _phrase(words: str, *, company: bool) -> str:
    """A name as a pattern: any run of spaces between its words, case ignored, except a
    first word that is also an English word in capitals ("A Company", not "a company"),
    and a company's name made of ordinary words only ("Supply Company": "the Australians'
    supply company" is not the Japanese company of that name), which keeps its capitals.
    An area or a side is found in any case ("kilu", "japanese")."""
    parts = words.split()
    ordinary = not any(ch.isdigit() for ch in words) and all(len(p) > 1 for p in parts)
    if company and ordinary and any(ch.isupper() for ch in words):
        return r"\s+".join(re.escape(part) for part in parts)
    first, rest = parts[0], parts[1:]
    tail = r"\s+".join(re.escape(part) for part in rest)
    if first in ("A", "I"):
        head = re.escape(first)
        return head + (rf"\s+(?i:{tail})" if tail else "")
    whole = r"\s+".join(re.escape(part) for part in parts)
    return rf"(?i:{whole})"


def _finder(phrases: dict[str, str], *, company: bool) -> re.Pattern[str] | None:
    """One pattern for the phrases (phrase -> what it stands for), the longest first, so
    "1st Supply Company" is not also read as "Supply Company"."""
    ordered = sorted((p for p in phrases if p.strip()), key=len, reverse=True)
    if not ordered:
        return None
    either = "|".join(f"({_phrase(p, company=company)})" for p in ordered)
    return re.compile(rf"(?<!\w)(?:{either})(?!\w)")


def _found(text: str, phrases: dict[str, str], *, company: bool = False) -> list[str]:
    """What the phrases found in ``text`` stand for, in the order first written."""
    finder = _finder(phrases, company=company)
    if finder is None:
        return []
    ordered = sorted((p for p in phrases if p.strip()), key=len, reverse=True)
    out: list[str] = []
    for match in finder.finditer(text):
        index = next(i for i, group in enumerate(match.groups()) if group is not None)
        meant = phrases[ordered[index]]
        if meant not in out:
            out.append(meant)
    return out


def _company_phrases(state: CampaignState) -> dict[str, str]:
    phrases: dict[str, str] = {}
    for name in state.companies:
        phrases[name] = name
        short = re.sub(r"\s*\([^()]*\)\s*$", "", name)  # "C Company (militia)"
        if short and short != name:
            phrases.setdefault(short, name)
    return phrases


def _side_phrases(state: CampaignState) -> dict[str, str]:
    """Each side by the words a GM would write for it: its name in the campaign
    ("Australians"), its adjective ("Australian")."""
    phrases: dict[str, str] = {}
    for key, side in state.sides.items():
        for words in (side.name, names.side_adjective(key), names.people(side.name)):
            phrases.setdefault(words, key)
    return phrases


def _readers(state: CampaignState) -> dict[str, str]:
    """Who reads the reason under the fog: each side, and the spectators (one may be
    invited later, and reads the log as it stands)."""
    readers = {key: f"the {side.name}" for key, side in state.sides.items()}
    readers[SPECTATOR] = SPECTATORS
    return readers


def hidden_in_text(
    *,
    campaign: Campaign,
    text: str,
    holder: tuple[str, str | None] | None = None,
    read_by: Collection[str] | None = None,
) -> list[Revealed]:
    """What ``text``, read by every side and spectator, would tell a reader that the fog
    of war hides from it now; empty when nothing (or when the fog hides nothing).

    ``holder``: a change of who holds an area being made, (area, its new holder's side
    key or None). ``read_by``: the readers when not everyone (a side channel's side)."""
    text = text or ""
    if not text.strip():
        return []
    state = load_snapshot(campaign=campaign)
    if fog.sees_everything(state, fog.Viewer(side=SPECTATOR)):
        return []
    readers = _readers(state)
    if read_by is not None:
        readers = {key: words for key, words in readers.items() if key in read_by}
    seen_by = {
        reader: fog.visible_company_names(state, fog.Viewer(side=reader)) for reader in readers
    }
    shown_in_full = {
        reader: {c.name for c in state.companies.values() if c.side == reader} for reader in readers
    }
    found: list[Revealed] = []
    for name in _found(text, _company_phrases(state), company=True):
        company = state.companies[name]
        blind = tuple(
            words for reader, words in readers.items() if name not in shown_in_full[reader]
        )
        if blind:
            found.append(Revealed(f"the {names.side_adjective(company.side)} {name}", blind))
    sides = _found(text, _side_phrases(state))
    if sides:
        found += _unseen_positions(state, text, sides, readers, seen_by)
    if holder is not None and holder[1] in sides:
        found += _unseen_holder(state, holder, readers)
    return found


def _unseen_positions(
    state: CampaignState,
    text: str,
    sides: list[str],
    readers: dict[str, str],
    seen_by: dict[str, set[str]],
) -> list[Revealed]:
    """An area named with a side whose companies stand there unseen by some reader. Not
    the side's own base: where each side's base is is public, and "the Japanese base at
    Kilu" says nothing of who stands there."""
    found = []
    areas = _found(text, {name: name for name in state.areas})
    for area in areas:
        for side in sides:
            if state.sides[side].base == area:
                continue
            here = [c.name for c in state.companies.values() if c.side == side and c.area == area]
            blind = tuple(
                words
                for reader, words in readers.items()
                if reader != side and any(name not in seen_by[reader] for name in here)
            )
            if here and blind:
                adjective = names.side_adjective(side)
                found.append(Revealed(f"that {adjective} companies are in {area}", blind))
    return found


def _unseen_holder(
    state: CampaignState, holder: tuple[str, str | None], readers: dict[str, str]
) -> list[Revealed]:
    area, side = holder
    blind = tuple(
        words for reader, words in readers.items() if area not in fog.control_sight(state, reader)
    )
    if not blind or side is None:
        return []
    return [Revealed(f"who holds {area} now (the {names.side_adjective(side)})", blind)]
