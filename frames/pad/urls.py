"""The referee pad, the live match page, and the pad's service worker and manifest."""

from django.urls import path

from . import views

urlpatterns = [
    path("pad/", views.pad_home, name="pad-home"),
    path("frames/<int:pk>/pad/", views.frame_pad, name="frame-pad"),
    path("matches/<int:pk>/live/", views.match_live, name="match-live"),
    # Served from the root so that its scope covers the pad and live pages.
    path("sw.js", views.service_worker, name="pad-sw"),
    path("manifest.webmanifest", views.manifest, name="pad-manifest"),
]
