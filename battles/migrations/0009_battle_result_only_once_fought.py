# A migration of its own, after the data step (0008): on PostgreSQL the rows it updated
# and the table's new constraint are best not in one transaction.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0008_pending_battles_have_no_result"),
        ("campaign", "0015_side_people_words"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="battle",
            name="battle_result_once_fought",
        ),
        migrations.AddConstraint(
            model_name="battle",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("result__isnull", True), ("status", "pending")),
                    models.Q(
                        models.Q(("status", "pending"), _negated=True),
                        ("result__isnull", False),
                    ),
                    _connector="OR",
                ),
                name="battle_result_only_once_fought",
            ),
        ),
    ]
