from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config import views

api_v1 = [
    path("", include("cards.api.urls")),
    path("", include("collecting.api.urls")),
    path("", include("decks.api.urls")),
    path("", include("simulator.api_urls")),
    path("tokens/", views.api_token_create, name="token-create"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("worker/<int:ping_id>/", views.worker_status, name="worker-status"),
    path("healthz", views.healthz, name="healthz"),
    path("", include("cards.urls")),
    path("", include("collecting.urls")),
    path("decks/", include("decks.urls")),
    path("decks/drafts/", include("simulator.drafts.urls")),  # a draft's test run
    path("simulations/", include("simulator.urls")),
    path("play/", include("simulator.table.urls")),
    path("bots/", include("simulator.ladder.urls")),  # the bots' ladder
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/tokens/", views.tokens, name="tokens"),
    path("accounts/tokens/new/", views.token_rotate, name="token-rotate"),
    path("admin/", admin.site.urls),
    path("api/v1/", include((api_v1, "api"))),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
]

# Django's error pages, except under /api/, where they answer in the API's error shape.
handler400 = views.bad_request
handler403 = views.permission_denied
handler404 = views.page_not_found
handler500 = views.server_error
