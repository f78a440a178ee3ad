"""The deck doctor's pages, mounted under /simulations/doctor/ (simulator/urls.py)."""

from django.urls import path

from simulator.doctor import views

urlpatterns = [
    path("deck/<int:deck_id>/", views.doctor_new, name="doctor-new"),
    path("<int:pk>/", views.doctor_detail, name="doctor"),
    path("<int:pk>/progress/", views.doctor_progress, name="doctor-progress"),
    path("<int:pk>/cancel/", views.doctor_cancel, name="doctor-cancel"),
    path("<int:pk>/apply/", views.doctor_apply, name="doctor-apply"),
    path("<int:pk>/check/", views.doctor_check, name="doctor-check"),
]
