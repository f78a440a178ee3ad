from django.urls import path

from simulator import doctor_views, views

app_name = "simulator"
urlpatterns = [
    path("", views.run_list, name="runs"),
    path("new/", views.run_new, name="new"),
    path("<int:pk>/", views.run_detail, name="detail"),
    path("<int:pk>/progress/", views.run_progress, name="progress"),
    path("<int:pk>/results/", views.run_results, name="results"),
    path("<int:pk>/cancel/", views.run_cancel, name="cancel"),
    path("<int:pk>/games/<int:sample_id>/", views.replay, name="replay"),
    path("doctor/deck/<int:deck_id>/", doctor_views.doctor_new, name="doctor-new"),
    path("doctor/<int:pk>/", doctor_views.doctor_detail, name="doctor"),
    path("doctor/<int:pk>/progress/", doctor_views.doctor_progress, name="doctor-progress"),
    path("doctor/<int:pk>/cancel/", doctor_views.doctor_cancel, name="doctor-cancel"),
    path("doctor/<int:pk>/apply/", doctor_views.doctor_apply, name="doctor-apply"),
]
