from django.urls import path

from . import views

urlpatterns = [
    path("notifications/", views.my_choices, name="notifications-choices"),
    path(
        "notifications/phones/<int:pk>/remove/",
        views.push_remove,
        name="notifications-push-remove",
    ),
    path("notifications/<str:token>/", views.token_choices, name="notifications-choices-token"),
    path(
        "notifications/unsubscribe/<str:token>/",
        views.unsubscribe,
        name="notifications-unsubscribe",
    ),
]
