"""The collection models, moved here from the cards app (cards/migrations/0008).

State only: their tables were made by cards 0002 and keep their names (`db_table`), so on an
existing database and a fresh one alike this creates nothing (docs/collections.md)."""

import collecting.models
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('cards', '0008_move_collections_out'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Collection',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100)),
                        ('trade_list_public', models.BooleanField(default=False, help_text="Other users may see (read-only) this collection's trade list.")),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='card_collections', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'cards_collection',
                        'ordering': ['name', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='CollectionChip',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('quantity', models.PositiveIntegerField(default=0)),
                        ('notes', models.TextField(blank=True, max_length=500)),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chips', to='collecting.collection')),
                        ('kicker_chip', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='collection_chips', to='cards.kickerchip')),
                    ],
                    options={
                        'db_table': 'cards_collectionchip',
                        'ordering': ['kicker_chip__card_set__order', 'kicker_chip__code'],
                    },
                ),
                migrations.CreateModel(
                    name='CollectionEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('condition', models.CharField(choices=[('mint', 'Mint'), ('near_mint', 'Near Mint'), ('excellent', 'Excellent'), ('good', 'Good'), ('light_played', 'Light Played'), ('played', 'Played'), ('poor', 'Poor')], default='near_mint', max_length=12)),
                        ('quantity', models.PositiveIntegerField(default=0)),
                        ('notes', models.TextField(blank=True, max_length=500)),
                        ('acquired_on', models.DateField(blank=True, null=True)),
                        ('card', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='collection_entries', to='cards.card')),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='collecting.collection')),
                    ],
                    options={
                        'db_table': 'cards_collectionentry',
                        'ordering': ['card__card_set__order', 'card__number', 'condition'],
                    },
                ),
                migrations.CreateModel(
                    name='CardScan',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('image', models.FileField(upload_to=collecting.models._scan_path)),
                        ('thumbnail', models.FileField(upload_to=collecting.models._scan_path)),
                        ('content_type', models.CharField(max_length=20)),
                        ('width', models.PositiveIntegerField()),
                        ('height', models.PositiveIntegerField()),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('card', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scans', to='cards.card')),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='card_scans', to=settings.AUTH_USER_MODEL)),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scans', to='collecting.collection')),
                        ('entry', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='scans', to='collecting.collectionentry')),
                    ],
                    options={
                        'db_table': 'cards_cardscan',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='ProductOpening',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('booster', 'Booster'), ('starter', 'Starter')], max_length=8)),
                        ('contents', models.JSONField(default=dict, help_text='{"cards": {code: qty}, "kicker_chips": {}}')),
                        ('opened_at', models.DateTimeField(auto_now_add=True)),
                        ('card_set', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='cards.cardset')),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='openings', to='collecting.collection')),
                        ('starter', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='cards.starterdeck')),
                    ],
                    options={
                        'db_table': 'cards_productopening',
                        'ordering': ['-opened_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='TradeKeep',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('keep', models.PositiveIntegerField()),
                        ('card', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.card')),
                        ('collection', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='trade_keeps', to='collecting.collection')),
                    ],
                    options={
                        'db_table': 'cards_tradekeep',
                    },
                ),
                migrations.CreateModel(
                    name='WishlistEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('quantity', models.PositiveIntegerField(default=1)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('card', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='wishlist_entries', to='cards.card')),
                        ('kicker_chip', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='wishlist_entries', to='cards.kickerchip')),
                        ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='wishlist', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'cards_wishlistentry',
                        'ordering': ['created_at', 'id'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='collection',
                    constraint=models.UniqueConstraint(fields=('owner', 'name'), name='collection_unique_name'),
                ),
                migrations.AddConstraint(
                    model_name='collectionchip',
                    constraint=models.UniqueConstraint(fields=('collection', 'kicker_chip'), name='chip_unique'),
                ),
                migrations.AddConstraint(
                    model_name='collectionchip',
                    constraint=models.CheckConstraint(condition=models.Q(('quantity__gte', 0), ('quantity__lte', 9999)), name='chip_quantity_range'),
                ),
                migrations.AddConstraint(
                    model_name='collectionentry',
                    constraint=models.UniqueConstraint(fields=('collection', 'card', 'condition'), name='entry_unique_card_condition'),
                ),
                migrations.AddConstraint(
                    model_name='collectionentry',
                    constraint=models.CheckConstraint(condition=models.Q(('quantity__gte', 0), ('quantity__lte', 9999)), name='entry_quantity_range'),
                ),
                migrations.AddConstraint(
                    model_name='tradekeep',
                    constraint=models.UniqueConstraint(fields=('collection', 'card'), name='trade_keep_unique'),
                ),
                migrations.AddConstraint(
                    model_name='tradekeep',
                    constraint=models.CheckConstraint(condition=models.Q(('keep__lte', 9999)), name='trade_keep_range'),
                ),
                migrations.AddConstraint(
                    model_name='wishlistentry',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('card__isnull', False), ('kicker_chip__isnull', True)), models.Q(('card__isnull', True), ('kicker_chip__isnull', False)), _connector='OR'), name='wish_card_xor_chip'),
                ),
                migrations.AddConstraint(
                    model_name='wishlistentry',
                    constraint=models.CheckConstraint(condition=models.Q(('quantity__gte', 1), ('quantity__lte', 9999)), name='wish_quantity_range'),
                ),
                migrations.AddConstraint(
                    model_name='wishlistentry',
                    constraint=models.UniqueConstraint(condition=models.Q(('card__isnull', False)), fields=('owner', 'card'), name='wish_unique_card'),
                ),
                migrations.AddConstraint(
                    model_name='wishlistentry',
                    constraint=models.UniqueConstraint(condition=models.Q(('kicker_chip__isnull', False)), fields=('owner', 'kicker_chip'), name='wish_unique_chip'),
                ),
            ],
        ),
    ]
