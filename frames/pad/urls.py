"""The referee pad, the live match page, and the pad's service worker and manifest."""

from django.urls import path

from . import private_ball, views

urlpatterns = [
    path("pad/", views.pad_home, name="pad-home"),
    path("frames/<int:pk>/pad/", views.frame_pad, name="frame-pad"),
    path("frames/<int:pk>/ball/", private_ball.frame_private_ball, name="frame-private-ball"),
    # The rules engine's source for the pad's offline engine, named by its content hash.
    path("pad/engine/<str:digest>.zip", views.engine_zip, name="pad-engine"),
    path("matches/<int:pk>/live/", views.match_live, name="match-live"),
    # Served from the root so that its scope covers the pad and live pages.
    path("sw.js", views.service_worker, name="pad-sw"),
    path("manifest.webmanifest", views.manifest, name="pad-manifest"),
]
