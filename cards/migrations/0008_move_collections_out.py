"""The collection models move to the collecting app (collecting/migrations/0001_initial.py).

State only: they leave this app's state here and enter collecting's in its 0001, keeping their
tables (`db_table`), so no row is copied and no table is touched (docs/collections.md)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0007_search_stat_order'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name='collection',
                    name='owner',
                ),
                migrations.RemoveField(
                    model_name='collectionchip',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='productopening',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='tradekeep',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='collectionentry',
                    name='collection',
                ),
                migrations.RemoveField(
                    model_name='collectionchip',
                    name='kicker_chip',
                ),
                migrations.RemoveField(
                    model_name='collectionentry',
                    name='card',
                ),
                migrations.RemoveField(
                    model_name='productopening',
                    name='card_set',
                ),
                migrations.RemoveField(
                    model_name='productopening',
                    name='starter',
                ),
                migrations.RemoveField(
                    model_name='tradekeep',
                    name='card',
                ),
                migrations.RemoveField(
                    model_name='wishlistentry',
                    name='card',
                ),
                migrations.RemoveField(
                    model_name='wishlistentry',
                    name='kicker_chip',
                ),
                migrations.RemoveField(
                    model_name='wishlistentry',
                    name='owner',
                ),
                migrations.DeleteModel(
                    name='CardScan',
                ),
                migrations.DeleteModel(
                    name='Collection',
                ),
                migrations.DeleteModel(
                    name='CollectionChip',
                ),
                migrations.DeleteModel(
                    name='CollectionEntry',
                ),
                migrations.DeleteModel(
                    name='ProductOpening',
                ),
                migrations.DeleteModel(
                    name='TradeKeep',
                ),
                migrations.DeleteModel(
                    name='WishlistEntry',
                ),
            ],
        ),
    ]
