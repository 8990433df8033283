"""Once the word index of card and attribute names; it belongs to the cards app now
(``cards/migrations/0006_card_name_search_index.py``, ``cards.search_index``), which
creates it when missing and keeps the tables' names. Kept, empty, so that databases
that applied it and the explorer's later migrations stay consistent."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cards", "0004_card_def_ability_name_indexes"),
    ]

    operations = []
