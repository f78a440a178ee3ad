# Tables of 3 to 8 seats in the metagame lab (#28 §1.5).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('simulator', '0012_metagame_fields'),
    ]

    operations = [
        migrations.AddField(
            model_name='field',
            name='table_size',
            field=models.PositiveSmallIntegerField(default=2, help_text='Seats at a table: 2 (heads-up) or 3 to 8 where the game seats more.'),
        ),
        migrations.AddField(
            model_name='fieldrun',
            name='table_size',
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AddField(
            model_name='fieldstage',
            name='seats',
            field=models.JSONField(blank=True, default=None, help_text='A table of more than two seats: the deck in each seat (None: heads-up).', null=True),
        ),
        migrations.AlterModelOptions(
            name='fieldstage',
            options={'ordering': ['field_run', 'round', 'i', 'j', 'id']},
        ),
    ]
