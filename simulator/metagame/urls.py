"""The metagame lab's pages, mounted under /simulations/ (simulator/urls.py): fields at
/simulations/fields/, field runs at /simulations/field-runs/."""

from django.urls import path

from simulator.metagame import views

urlpatterns = [
    path("fields/", views.field_list, name="fields"),
    path("fields/new/", views.field_new, name="field-new"),
    path("fields/<int:pk>/", views.field_detail, name="field"),
    path("fields/<int:pk>/edit/", views.field_edit, name="field-edit"),
    path("fields/<int:pk>/copy/", views.field_copy, name="field-copy"),
    path("fields/<int:pk>/delete/", views.field_delete, name="field-delete"),
    path("fields/<int:pk>/run/", views.field_run_start, name="field-run-start"),
    path("fields/<int:pk>/doctor/", views.field_doctor, name="field-doctor"),
    path("field-runs/<int:pk>/", views.field_run_detail, name="field-run"),
    path("field-runs/<int:pk>/progress/", views.field_run_progress, name="field-run-progress"),
    path("field-runs/<int:pk>/cancel/", views.field_run_cancel, name="field-run-cancel"),
]
