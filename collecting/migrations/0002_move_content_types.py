"""The moved models' content types follow them: cards.<model> becomes collecting.<model>.

Their permissions (add_collection, ...) and admin log entries point at these rows, so renaming
the rows keeps both; a fresh database has no such rows and this does nothing. Where a
collecting row already exists (made after the move by a `migrate` that ran before this one
existed), the old row is left as it is rather than merged."""

from django.db import migrations

MODELS = [
    "collection",
    "collectionentry",
    "collectionchip",
    "wishlistentry",
    "tradekeep",
    "productopening",
    "cardscan",
]


def _relabel(apps, old: str, new: str) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    taken = set(
        content_type.objects.filter(app_label=new, model__in=MODELS).values_list("model", flat=True)
    )
    content_type.objects.filter(app_label=old, model__in=set(MODELS) - taken).update(
        app_label=new
    )


def forward(apps, schema_editor):
    _relabel(apps, "cards", "collecting")


def backward(apps, schema_editor):
    _relabel(apps, "collecting", "cards")


class Migration(migrations.Migration):
    dependencies = [
        ("collecting", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forward, backward)]
