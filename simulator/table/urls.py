from django.urls import path

from simulator.table import views

app_name = "play"
urlpatterns = [
    path("", views.play_setup, name="setup"),
    path("history/", views.play_history, name="history"),
    path("<int:pk>/", views.play_game, name="game"),
    path("<int:pk>/live/", views.play_live, name="live"),
    path("<int:pk>/act/", views.play_act, name="act"),
    path("<int:pk>/join/", views.play_join, name="join"),
    path("<int:pk>/start/", views.play_start, name="start"),
    path("<int:pk>/leave/", views.play_leave, name="leave"),
    path("<int:pk>/resign/", views.play_resign, name="resign"),
    path("<int:pk>/end/", views.play_end, name="end"),
    path("<int:pk>/take-back/", views.play_take_back, name="take-back"),
    path("<int:pk>/talk/", views.play_talk, name="talk"),
    path("<int:pk>/talk/hide/", views.play_talk_hide, name="talk-hide"),
    path("<int:pk>/talk/remove/", views.play_talk_remove, name="talk-remove"),
    path("<int:pk>/replay/", views.play_replay, name="replay"),
    path("<int:pk>/again/", views.play_again, name="again"),
    path("<int:pk>/simulate/", views.play_simulate, name="simulate"),
    path("join/<str:token>/", views.play_invite, name="invite"),
]
