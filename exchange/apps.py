from django.apps import AppConfig


class ExchangeConfig(AppConfig):
    """A league's data in and out as a whole: the JSON archive (export, backup, restore).
    Above both apps (it reads and writes leagues' and frames' tables), below `config`."""

    name = "exchange"
    verbose_name = "Archive and backup"
