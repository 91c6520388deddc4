from django.apps import AppConfig


class SeriesConfig(AppConfig):
    name = "series"
    verbose_name = "Ranking series"

    def ready(self) -> None:
        from competitions.common import add_entry_check

        from . import eligibility, permissions  # noqa: F401  (registers the predicates)

        # A category series' event refuses an ineligible entry (competitions cannot import
        # series: it asks through the hook it declares).
        add_entry_check(eligibility.check_entry)
