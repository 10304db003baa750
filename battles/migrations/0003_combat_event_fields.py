"""Combat Event records fought before issue 16 said what an event did only in words
(``outcome``); the replay now reads structured fields (``stand``, ``becomes``, ``to``,
``hidden``: rules.oldbreed.EventOutcome). This reads the words of the stored records
once, as the replay used to, and adds the fields, so an old battle replays as it did.
Records that already have them, and battles without events, are left alone."""

from __future__ import annotations

import re

from django.db import migrations

_STAND_ID = r"[ad]\.[a-z_]+\.\d+"
_PATTERNS = [
    (re.compile(rf"({_STAND_ID}) is killed"), lambda m: {"stand": m[1], "becomes": "killed"}),
    (
        re.compile(rf"({_STAND_ID}) is (pinned|suppressed)"),
        lambda m: {"stand": m[1], "becomes": m[2]},
    ),
    (re.compile(rf"({_STAND_ID}) rallies"), lambda m: {"stand": m[1], "becomes": "ok"}),
    (
        re.compile(rf"({_STAND_ID}) (rejoins|appears, hidden,) at (\d+),(\d+)"),
        lambda m: {
            "stand": m[1],
            "becomes": "ok",
            "to": [int(m[3]), int(m[4])],
            "hidden": m[2] != "rejoins",
        },
    ),
]


def fields_of(outcome: str) -> dict:
    for pattern, fields in _PATTERNS:
        if m := pattern.match(outcome):
            return fields(m)
    return {}


def add_fields(apps, schema_editor):  # noqa: ANN001
    Battle = apps.get_model("battles", "Battle")
    for battle in Battle.objects.only("id", "log").iterator():
        changed = False
        for record in battle.log:
            if record.get("kind") == "combat_event" and "becomes" not in record:
                fields = fields_of(str(record.get("outcome", "")))
                if fields:
                    record.update(fields)
                    changed = True
        if changed:
            battle.save(update_fields=["log"])


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0002_battle_mode_in_words"),
    ]

    operations = [migrations.RunPython(add_fields, migrations.RunPython.noop)]
