"""The league's ledger (append-only, pence) and each season's fee schedule."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('competitions', '0003_knockout_commit'),
        ('leagues', '0021_fixture_postponed_by_and_treasurer'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='FeeSchedule',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('team_fee', models.PositiveIntegerField(default=0, help_text='Each team, once a season.')),
                ('player_sub', models.PositiveIntegerField(default=0, help_text='Each registered player, once a season.')),
                ('table_money', models.PositiveIntegerField(default=0, help_text='Paid by the home side for each home match played.')),
                ('postponement_fine', models.PositiveIntegerField(default=0, help_text='Raised on the side that postponed a fixture without a new date.')),
                ('fine_after_days', models.PositiveSmallIntegerField(default=14, help_text="Days after the fixture's night a postponement without a new date is fined.")),
                ('updated_at', models.DateTimeField()),
                ('season', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='fee_schedule', to='leagues.season')),
                ('updated_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='LedgerEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('team_fee', 'Team fee'), ('player_sub', 'Player sub'), ('cup_entry', 'Cup entry fee'), ('fine', 'Fine'), ('table_money', 'Table money'), ('payment', 'Payment'), ('reversal', 'Reversal')], max_length=12)),
                ('amount', models.IntegerField(help_text="Pence added to the account's debt (see above).")),
                ('description', models.CharField(max_length=200)),
                ('method', models.CharField(blank=True, choices=[('cash', 'Cash'), ('transfer', 'Bank transfer'), ('other', 'Other')], max_length=8)),
                ('paid_on', models.DateField(blank=True, help_text="A payment's date.", null=True)),
                ('reference', models.CharField(blank=True, help_text="A payment's reference.", max_length=80)),
                ('idempotency_key', models.CharField(blank=True, max_length=80, null=True, unique=True)),
                ('created_at', models.DateTimeField()),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('cup_entry', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='fee_lines', to='competitions.entry')),
                ('fixture', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='leagues.fixture')),
                ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ledger', to='leagues.league')),
                ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.RESTRICT, related_name='ledger', to='leagues.player')),
                ('reverses', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.RESTRICT, related_name='reversed_by', to='money.ledgerentry')),
                ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ledger', to='leagues.season')),
                ('team', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.RESTRICT, related_name='ledger', to='leagues.team')),
            ],
            options={
                'verbose_name_plural': 'ledger entries',
                'ordering': ['created_at', 'id'],
                'indexes': [models.Index(fields=['season', 'team'], name='ledger_season_team'), models.Index(fields=['season', 'player'], name='ledger_season_player')],
                'constraints': [models.CheckConstraint(condition=models.Q(models.Q(('player__isnull', True), ('team__isnull', False)), models.Q(('player__isnull', False), ('team__isnull', True)), _connector='OR'), name='ledger_account_is_a_team_or_a_player'), models.CheckConstraint(condition=models.Q(('amount', 0), _negated=True), name='ledger_amount_not_zero'), models.CheckConstraint(condition=models.Q(('kind__in', ['payment', 'reversal']), ('amount__gt', 0), _connector='OR'), name='ledger_charge_positive'), models.CheckConstraint(condition=models.Q(models.Q(('kind', 'payment'), _negated=True), models.Q(('amount__lt', 0), models.Q(('method', ''), _negated=True)), _connector='OR'), name='ledger_payment_negative_with_method'), models.CheckConstraint(condition=models.Q(models.Q(('kind', 'reversal'), ('reverses__isnull', False)), models.Q(models.Q(('kind', 'reversal'), _negated=True), ('reverses__isnull', True)), _connector='OR'), name='ledger_reversal_names_its_entry')],
            },
        ),
    ]
