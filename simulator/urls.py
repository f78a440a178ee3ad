"""The pages under /simulations/: the runs', the deck doctor's and the metagame lab's rooms, under
one URL namespace ("simulator:") as they have always been named."""

from django.urls import include, path

from simulator.doctor import urls as doctor_urls
from simulator.metagame import urls as metagame_urls
from simulator.runs import urls as runs_urls

app_name = "simulator"
urlpatterns = [
    *runs_urls.urlpatterns,
    path("doctor/", include(doctor_urls.urlpatterns)),
    # fields/ and field-runs/
    path("", include(metagame_urls.urlpatterns)),
]
