"""A database made before collections moved out of the cards app migrates forward intact.

The collection models moved from `cards` to `collecting` by state alone (cards 0008, collecting
0001): the tables keep their names, so every row is still there, under the new app's models,
and the content types (with their permissions) follow them (collecting 0002).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

# The last cards node before the move: a database made by the code of that time stands here
# (with every other app where it is today, and no collecting app).
BEFORE = ("cards", "0007_search_stat_order")
MOVED = [
    "collection",
    "collectionentry",
    "collectionchip",
    "wishlistentry",
    "tradekeep",
    "productopening",
    "cardscan",
]


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader: it reads what is applied now


def _write_old_rows(old) -> dict:
    """Collections, entries, chips, a scan, a wishlist and a trade list, as the old code kept
    them (the historical models of `cards` at BEFORE), and the old content types."""
    user_model = old.get_model(*settings.AUTH_USER_MODEL.split("."))
    content_type = old.get_model("contenttypes", "ContentType")
    permission = old.get_model("auth", "Permission")
    card_set_model = old.get_model("cards", "CardSet")
    card_model = old.get_model("cards", "Card")
    chip_model = old.get_model("cards", "KickerChip")
    starter_model = old.get_model("cards", "StarterDeck")

    # The old database had content types cards.<model> (unapplying collecting 0002 has put them
    # back), never collecting.<model>, and permissions on them.
    content_type.objects.filter(app_label="collecting").delete()
    cts = {m: content_type.objects.get_or_create(app_label="cards", model=m)[0] for m in MOVED}
    perm, _ = permission.objects.get_or_create(
        codename="add_collection",
        content_type=cts["collection"],
        defaults={"name": "Can add collection"},
    )

    ann = user_model.objects.create(username="mig-ann")
    bob = user_model.objects.create(username="mig-bob")
    card_set = card_set_model.objects.create(code="MIG", name="Migration", order=99)
    card = card_model.objects.create(
        card_set=card_set,
        number=1,
        code="MIG001",
        name="Old Timer",
        type="dude",
        rarity="rare",
        cost=3,
    )
    other = card_model.objects.create(
        card_set=card_set,
        number=2,
        code="MIG002",
        name="Old Gun",
        type="gear",
        rarity="common",
        cost=1,
    )
    chip = chip_model.objects.create(
        card_set=card_set,
        code="MIG-C1",
        color="red",
        value=2,
        side_a_stat="skill",
        side_a_amount=1,
        side_b_stat="luck",
        side_b_amount=-1,
    )
    starter = starter_model.objects.create(card_set=card_set, code="MIG-S", name="Old Starter")

    binder = old.get_model("cards", "Collection").objects.create(
        owner=ann, name="Binder", trade_list_public=True
    )
    box = old.get_model("cards", "Collection").objects.create(owner=ann, name="Trade box")
    entry_model = old.get_model("cards", "CollectionEntry")
    entry = entry_model.objects.create(
        collection=binder,
        card=card,
        condition="mint",
        quantity=7,
        notes="signed",
        acquired_on=dt.date(2026, 1, 2),
    )
    entry_model.objects.create(collection=box, card=other, condition="played", quantity=2)
    old.get_model("cards", "CollectionChip").objects.create(
        collection=binder, kicker_chip=chip, quantity=3, notes="shiny"
    )
    wishlist = old.get_model("cards", "WishlistEntry")
    wishlist.objects.create(owner=bob, card=card, quantity=2)
    wishlist.objects.create(owner=bob, kicker_chip=chip, quantity=1)
    old.get_model("cards", "TradeKeep").objects.create(collection=binder, card=card, keep=5)
    old.get_model("cards", "ProductOpening").objects.create(
        collection=binder,
        kind="starter",
        card_set=card_set,
        starter=starter,
        contents={"cards": {"MIG001": 1}, "kicker_chips": {}},
    )
    scan = old.get_model("cards", "CardScan").objects.create(
        owner=ann,
        collection=binder,
        card=card,
        entry=entry,
        image="scans/1/old.png",
        thumbnail="scans/1/old-thumb.png",
        content_type="image/png",
        width=640,
        height=480,
    )
    return {
        "ann": ann.pk,
        "bob": bob.pk,
        "card": card.pk,
        "other": other.pk,
        "chip": chip.pk,
        "binder": binder.pk,
        "box": box.pk,
        "entry": entry.pk,
        "scan": scan.pk,
        "starter": starter.pk,
        "cts": {m: ct.pk for m, ct in cts.items()},
        "perm": perm.pk,
    }


@pytest.mark.django_db(transaction=True)
def test_a_database_from_before_the_move_keeps_every_collection_row():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    before = [BEFORE] + [n for n in leaves if n[0] not in ("cards", "collecting")]
    executor = _migrate([*before, ("collecting", None)])
    assert not any(app == "collecting" for app, _ in executor.loader.applied_migrations)
    assert ("cards", "0008_move_collections_out") not in executor.loader.applied_migrations
    ids = _write_old_rows(executor.loader.project_state(before).apps)

    executor = _migrate(executor.loader.graph.leaf_nodes())
    assert ("cards", "0008_move_collections_out") in executor.loader.applied_migrations
    assert ("collecting", "0002_move_content_types") in executor.loader.applied_migrations

    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType

    from collecting.models import (
        CardScan,
        Collection,
        CollectionChip,
        CollectionEntry,
        ProductOpening,
        TradeKeep,
        WishlistEntry,
    )

    binder = Collection.objects.get(pk=ids["binder"])
    assert (binder.owner_id, binder.name, binder.trade_list_public) == (ids["ann"], "Binder", True)
    assert Collection.objects.get(pk=ids["box"]).name == "Trade box"
    assert sorted(
        CollectionEntry.objects.filter(collection__owner_id=ids["ann"]).values_list(
            "collection_id", "card_id", "condition", "quantity", "notes", "acquired_on"
        )
    ) == sorted(
        [
            (ids["binder"], ids["card"], "mint", 7, "signed", dt.date(2026, 1, 2)),
            (ids["box"], ids["other"], "played", 2, "", None),
        ]
    )
    assert list(
        CollectionChip.objects.filter(collection=binder).values_list(
            "kicker_chip_id", "quantity", "notes"
        )
    ) == [(ids["chip"], 3, "shiny")]
    assert sorted(
        WishlistEntry.objects.filter(owner_id=ids["bob"]).values_list(
            "card_id", "kicker_chip_id", "quantity"
        ),
        key=str,
    ) == sorted([(ids["card"], None, 2), (None, ids["chip"], 1)], key=str)
    assert list(TradeKeep.objects.filter(collection=binder).values_list("card_id", "keep")) == [
        (ids["card"], 5)
    ]
    opening = ProductOpening.objects.get(collection=binder)
    assert (opening.kind, opening.starter_id, opening.contents) == (
        "starter",
        ids["starter"],
        {"cards": {"MIG001": 1}, "kicker_chips": {}},
    )
    scan = CardScan.objects.get(pk=ids["scan"])
    assert (scan.entry_id, scan.collection_id, scan.card_id, scan.owner_id) == (
        ids["entry"],
        ids["binder"],
        ids["card"],
        ids["ann"],
    )
    assert (scan.image.name, scan.thumbnail.name, scan.extension) == (
        "scans/1/old.png",
        "scans/1/old-thumb.png",
        "png",
    )
    # Through the new models' relations too: the entry's scan.
    assert binder.entries.get().scans.get() == scan

    # The content types moved with their ids, so permissions (and admin log entries) follow.
    for model, pk in ids["cts"].items():
        assert ContentType.objects.get(pk=pk).natural_key() == ("collecting", model)
    assert not ContentType.objects.filter(app_label="cards", model__in=MOVED).exists()
    assert Permission.objects.get(pk=ids["perm"]).content_type.app_label == "collecting"
    ContentType.objects.clear_cache()
    assert ContentType.objects.get_for_model(Collection).pk == ids["cts"]["collection"]
