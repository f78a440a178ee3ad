"""The draft page's test run, mounted under /decks/drafts/ by config/urls.py."""

from django.urls import path

from simulator.drafts import views as draft_views

app_name = "draft-runs"
urlpatterns = [path("<int:pk>/simulate/", draft_views.draft_simulate, name="create")]
