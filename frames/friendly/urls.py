from django.urls import path

from . import views

urlpatterns = [
    path("games/", views.friendly_list, name="friendly-list"),
    path("games/new/", views.friendly_new, name="friendly-new"),
    path("games/<int:pk>/", views.friendly_detail, name="friendly-detail"),
    path("games/<int:pk>/live/", views.friendly_live, name="friendly-live"),
]
