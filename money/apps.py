from django.apps import AppConfig


class MoneyConfig(AppConfig):
    name = "money"
    verbose_name = "The league's money"

    def ready(self) -> None:
        from competitions.common import set_fee_ledger

        from . import cupfees, permissions  # noqa: F401  (registers the predicates)

        # A cup entry's fee is charged and settled in the ledger (competitions cannot
        # import money: it asks through the hook it declares).
        set_fee_ledger(cupfees)
