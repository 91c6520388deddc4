"""Wires the apps' URLs together."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import frames.matchnight.urls
import frames.ratings.urls
import frames.stats.urls
import leagues.urls
from marker.health import healthz
from marker.throttle import PasswordResetConfirmView

# Paths under /api/ answer errors as JSON (`marker.api_errors`); other paths, Django's pages.
handler400 = "marker.api_errors.bad_request"
handler403 = "marker.api_errors.permission_denied"
handler404 = "marker.api_errors.page_not_found"
handler500 = "marker.api_errors.server_error"

urlpatterns = [
    # The load balancer's health check (deploy/nginx): the database and the cache answer.
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # The reset's last step also lifts the username's login lock-outs (marker/throttle.py).
    path(
        "accounts/reset/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The docs page loads its script from its own URL (?script), the assets from our static
    # files (drf-spectacular-sidecar): it runs under the site's CSP with no network.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/docs.html"),
        name="api-docs",
    ),
    path("api/", include("frames.matchnight.api_urls")),
    path("api/", include("frames.pad.api_urls")),
    path("api/", include("frames.friendly.api_urls")),
    path("api/", include("frames.ratings.api_urls")),
    path("api/", include("people.api_urls")),
    path("api/", include("frames.stats.api_urls")),
    path("api/", include("leagues.api_urls")),
    path("api/", include("competitions.api_urls")),
    path("api/", include("money.api_urls")),
    path("api/", include("series.api_urls")),
    path("api/", include("notifications.api_urls")),
    path("", include("frames.matchnight.urls")),
    path("", include("frames.pad.urls")),
    path("", include("frames.friendly.urls")),
    path("", include("frames.stats.urls")),
    path("", include("frames.ratings.urls")),
    path("", include("people.urls")),
    path("", include("notifications.urls")),
    path("", include("exchange.urls")),
    path("", include("competitions.urls")),
    path("", include("money.urls")),
    path("", include("series.urls")),
    path("", include("leagues.urls")),
    # Last: a league's pages, under its slug (a slug never names one of the paths above:
    # leagues.tenancy.reserved_slugs).
    path(
        "<slug:league>/",
        include(
            leagues.urls.league_urlpatterns
            + frames.stats.urls.league_urlpatterns
            + frames.ratings.urls.league_urlpatterns
            + frames.matchnight.urls.league_urlpatterns
        ),
    ),
]
