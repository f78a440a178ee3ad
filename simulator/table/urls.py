from django.urls import path

from simulator.table import views

app_name = "play"
urlpatterns = [
    path("", views.play_setup, name="setup"),
    path("<int:pk>/", views.play_game, name="game"),
    path("<int:pk>/act/", views.play_act, name="act"),
    path("<int:pk>/replay/", views.play_replay, name="replay"),
    path("<int:pk>/again/", views.play_again, name="again"),
    path("<int:pk>/simulate/", views.play_simulate, name="simulate"),
    path("join/<str:token>/", views.play_invite, name="invite"),
]
