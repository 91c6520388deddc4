"""The referee pad, the live match page, and the pad's service worker and manifest."""

from django.urls import path

from . import pad_views

urlpatterns = [
    path("pad/", pad_views.pad_home, name="pad-home"),
    path("frames/<int:pk>/pad/", pad_views.frame_pad, name="frame-pad"),
    path("matches/<int:pk>/live/", pad_views.match_live, name="match-live"),
    # Served from the root so that its scope covers the pad and live pages.
    path("sw.js", pad_views.service_worker, name="pad-sw"),
    path("manifest.webmanifest", pad_views.manifest, name="pad-manifest"),
]
