from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = "Cups, singles and pairs"

    def ready(self) -> None:
        from . import permissions  # noqa: F401  (registers the predicates)
