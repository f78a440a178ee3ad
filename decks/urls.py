from django.urls import path

from decks import card_page, public_views, views

app_name = "decks"
urlpatterns = [
    path("", views.deck_list, name="list"),
    path("new/", views.deck_new, name="new"),
    path("import/", views.deck_import, name="import"),
    path("<int:pk>/", views.deck_detail, name="detail"),
    path("<int:pk>/build/", views.deck_builder, name="builder"),
    path("<int:pk>/build/search/", views.deck_search, name="search"),
    path("<int:pk>/build/edit/", views.deck_edit, name="edit"),
    path("<int:pk>/settings/", views.deck_settings, name="settings"),
    path("<int:pk>/versions/", views.deck_version_save, name="version-save"),
    path("<int:pk>/delete/", views.deck_delete, name="delete"),
    path("<int:pk>/export/<str:kind>/", views.deck_export, name="export"),
    path("<int:pk>/wishlist/", views.deck_wishlist, name="wishlist"),
    path("add-card/<str:code>/", card_page.add_card, name="add-card"),
    path("public/", public_views.public_deck_list, name="public-list"),
    path("s/<str:slug>/", public_views.public_deck, name="shared"),
    path("s/<str:slug>/copy/", public_views.public_deck_copy, name="shared-copy"),
    path("sealed/", views.sealed, name="sealed"),
    path("pools/<int:pk>/", views.pool_detail, name="pool-detail"),
    path("drafts/", views.draft_list, name="draft-list"),
    path("drafts/<int:pk>/", views.draft_detail, name="draft-detail"),
]
