"""The bots' ladder page, mounted at /bots/ (config/urls.py)."""

from django.urls import path

from simulator.ladder import views

app_name = "bots"
urlpatterns = [path("", views.bots_ladder, name="ladder")]
