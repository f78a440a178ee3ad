from django.urls import path, register_converter

from cards import suggest, views


class SizeConverter:
    regex = "full|thumb"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class SideConverter:
    regex = "[01]"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(SizeConverter, "size")
register_converter(SideConverter, "side")

app_name = "cards"
urlpatterns = [
    path("cards/", views.card_grid, name="card-grid"),
    path("cards/back/<size:size>.png", views.card_back, name="card-back"),
    path("cards/suggest/", suggest.suggest, name="suggest"),
    path("cards/<str:code>/", views.card_detail, name="card-detail"),
    path("cards/<str:code>/<size:size>.png", views.card_image, name="card-image"),
    path("sets/", views.set_list, name="set-list"),
    path("sets/<str:code>/", views.set_detail, name="set-detail"),
    path("kicker-chips/<str:code>/", views.chip_detail, name="chip-detail"),
    path("kicker-chips/<str:code>/<side:side>.png", views.chip_image, name="chip-image"),
]
