from django.apps import AppConfig


class FramesConfig(AppConfig):
    name = "frames"
    verbose_name = "Match nights and frames"

    def ready(self) -> None:
        from . import permissions  # noqa: F401  (registers the predicates)
