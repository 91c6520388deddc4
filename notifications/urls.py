from django.urls import path

from . import views

# The choices pages (`notifications/`, `notifications/<token>/`) are people's
# (people/urls.py): they list the person's leagues, which this app may not read.
urlpatterns = [
    path(
        "notifications/phones/<int:pk>/remove/",
        views.push_remove,
        name="notifications-push-remove",
    ),
    path(
        "notifications/unsubscribe/<str:token>/",
        views.unsubscribe,
        name="notifications-unsubscribe",
    ),
]
