"""Wires the apps' URLs together."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from marker.throttle import PasswordResetConfirmView

urlpatterns = [
    path("admin/", admin.site.urls),
    # The reset's last step also lifts the username's login lock-outs (marker/throttle.py).
    path(
        "accounts/reset/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("frames.matchnight.api_urls")),
    path("api/", include("frames.pad.api_urls")),
    path("api/", include("frames.friendly.api_urls")),
    path("api/", include("leagues.api_urls")),
    path("", include("frames.matchnight.urls")),
    path("", include("frames.pad.urls")),
    path("", include("frames.friendly.urls")),
    path("", include("frames.stats.urls")),
    path("", include("leagues.urls")),
]
