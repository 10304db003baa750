"""Orders kept before ids were their company's and turn's (``campaign.models.order_id``)
take that id: their old ids, from a sequence both sides shared, counted the enemy's
orders in between. Two passes (each id made negative first), so no row takes an id
another still has."""

from django.db import migrations
from django.db.models import F

ORDER_TURN_SPAN = 2**20  # campaign.models.ORDER_TURN_SPAN, as it was when this was written


def renumber(apps, schema_editor):
    Order = apps.get_model("campaign", "Order")
    Order.objects.filter(id__gt=0).update(id=-F("id"))
    Order.objects.update(id=F("company_id") * ORDER_TURN_SPAN + F("turn_number"))


class Migration(migrations.Migration):
    dependencies = [("campaign", "0008_seed_commitment")]

    operations = [migrations.RunPython(renumber, migrations.RunPython.noop)]
