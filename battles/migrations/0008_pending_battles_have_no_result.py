"""A battle still to be fought keeps no result: one that has one (no code of Korona
writes it; only a hand edit of the database could) loses it, before the next migration
makes the database refuse the pair. Every page, the admin and the API already read such
a battle as not fought yet, and the game master enters its result, or the rules fight
it, as for any other (docs/campaign.md, "Battles and their results")."""

from typing import Any

from django.db import migrations


def clear_results_of_pending_battles(apps: Any, schema_editor: Any) -> None:
    Battle = apps.get_model("battles", "Battle")
    Battle.objects.filter(status="pending", result__isnull=False).update(result=None)


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0007_battle_winner_column"),
    ]

    # Nothing to put back: the results cleared were never read.
    operations = [
        migrations.RunPython(clear_results_of_pending_battles, migrations.RunPython.noop),
    ]
