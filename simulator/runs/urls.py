"""The runs' pages, mounted with the doctor's under /simulations/ (simulator/urls.py)."""

from django.urls import path

from simulator.runs import views

urlpatterns = [
    path("", views.run_list, name="runs"),
    path("new/", views.run_new, name="new"),
    path("<int:pk>/", views.run_detail, name="detail"),
    path("<int:pk>/progress/", views.run_progress, name="progress"),
    path("<int:pk>/results/", views.run_results, name="results"),
    path("<int:pk>/cancel/", views.run_cancel, name="cancel"),
    path("<int:pk>/check/", views.run_check, name="check"),
    path("<int:pk>/games/<int:sample_id>/", views.replay, name="replay"),
]
