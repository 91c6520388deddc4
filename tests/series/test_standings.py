"""Issue 32's "done when": a six-event ranking series, best four counting, reproduces a
hand-worked standings table, ties broken by the secretary's tie-breakers (and one place
shared), with what each player needs while events remain. Pure: no database."""

from __future__ import annotations

from decimal import Decimal as D

from series import standings as calc

# Points by round reached: winner 25, runner-up 18, semi-final 12, quarter-final 8, then
# 2 for playing. Event 6 is the major, weighted 1.5. Best four count. Tie-breakers: most
# wins (countback), best single result, head-to-head, then shared.
RULES = calc.Rules(
    best_n=4,
    basis=calc.ROUND,
    table=(D(25), D(18), D(12), D(8)),
    appearance=D(2),
    tie_breakers=(calc.MOST_WINS, calc.BEST_SINGLE, calc.HEAD_TO_HEAD),
)


def _events(played: int) -> list[calc.Event]:
    return [
        calc.Event(
            id=100 + n,
            number=n,
            name=f"Open {n}",
            weight=D("1.5") if n == 6 else D(1),
            played=n <= played,
        )
        for n in range(1, 7)
    ]


NAMES = {1: "Ann", 2: "Bob", 3: "Cat", 4: "Dan", 5: "Eve", 6: "Fay", 7: "Gus"}
# Placings by player, event 1 to 6 (None: did not play). 1 won, 2 runner-up, 3 a
# semi-final, 5 a quarter-final, 9 out earlier.
PLACINGS = {
    1: (1, 3, 2, 5, None, 3),  # Ann
    2: (2, 1, 3, 3, 1, 5),  # Bob
    3: (3, 2, 1, 1, 5, 9),  # Cat
    4: (5, 3, 2, 3, 5, None),  # Dan
    5: (3, 5, 3, 5, 2, None),  # Eve
    6: (None, None, None, None, None, 3),  # Fay
    7: (None, None, None, None, None, 3),  # Gus
}


def _placings(played: int = 6) -> dict[int, dict[int, int]]:
    return {
        pid: {100 + i + 1: p for i, p in enumerate(row) if p is not None and i < played}
        for pid, row in PLACINGS.items()
    }


def test_six_events_best_four_reproduce_the_hand_worked_table():
    rows = calc.standings(RULES, _events(6), _placings(), NAMES)
    # Worked by hand (event: points; [dropped]):
    # Bob  25(2) 25(5) 18(1) 12(3) [12(4) 12(6)=8×1.5]           = 80
    # Cat  25(3) 25(4) 18(2) 12(1) [8(5) 3(6)=2×1.5]             = 80
    # Ann  25(1) 18(3) 18(6)=12×1.5 12(2) [8(4)]                 = 73
    # Dan  18(3) 12(2) 12(4) 8(1) [8(5)]                         = 50
    # Eve  18(5) 12(1) 12(3) 8(2) [8(4)]                         = 50
    # Fay  18(6)                                                 = 18
    # Gus  18(6)                                                 = 18
    table = [
        (r.rank_label, r.name, calc.fmt(r.total), [r.event.number for r in r.counted]) for r in rows
    ]
    assert table == [
        ("1", "Bob", "80", [1, 2, 3, 5]),
        ("2", "Cat", "80", [1, 2, 3, 4]),
        ("3", "Ann", "73", [1, 2, 3, 6]),
        ("4", "Dan", "50", [1, 2, 3, 4]),
        ("5", "Eve", "50", [1, 2, 3, 5]),
        ("=6", "Fay", "18", [6]),
        ("=6", "Gus", "18", [6]),
    ]
    by_name = {r.name: r for r in rows}
    assert [(r.event.number, calc.fmt(r.points)) for r in by_name["Bob"].dropped] == [
        (4, "12"),
        (6, "12"),
    ]
    assert [(r.event.number, calc.fmt(r.points)) for r in by_name["Cat"].dropped] == [
        (5, "8"),
        (6, "3"),
    ]
    assert [(r.event.number, calc.fmt(r.points)) for r in by_name["Dan"].dropped] == [(5, "8")]
    assert [r.label for r in by_name["Ann"].results] == [
        "Winner",
        "Semi-final",
        "Runner-up",
        "Quarter-final",
        "Semi-final",
    ]


def test_the_ties_are_broken_by_the_secretarys_tie_breakers_in_order():
    rows = {r.name: r for r in calc.standings(RULES, _events(6), _placings(), NAMES)}
    # Bob and Cat: two wins and one runner-up place each; Bob has two semi-finals to
    # Cat's one, so most wins (countback) puts Bob first.
    assert "most wins decided" in rows["Bob"].tie_break
    assert "Bob: 1st×2, 2nd×1, 3rd×2, 5th×1" in rows["Bob"].tie_break
    assert "Cat: 1st×2, 2nd×1, 3rd×1, 5th×1, 9th×1" in rows["Cat"].tie_break
    # Dan and Eve: the same placings (a 2nd, two 3rds, two 5ths) and best single (18);
    # where they met Dan finished ahead three times to Eve's two.
    assert "head-to-head decided" in rows["Dan"].tie_break
    assert "Dan: ahead 3 times; Eve: ahead 2 times" in rows["Dan"].tie_break
    assert "most wins" not in rows["Dan"].tie_break
    # Fay and Gus: level on everything, so the place is shared.
    assert rows["Fay"].shared and rows["Gus"].shared
    assert "shared" in rows["Fay"].tie_break
    assert rows["Ann"].tie_break == ""


def test_a_different_order_of_tie_breakers_changes_the_order():
    rules = calc.Rules(
        best_n=4,
        basis=calc.ROUND,
        table=RULES.table,
        appearance=D(2),
        tie_breakers=(calc.LATEST_EVENT,),
    )
    rows = calc.standings(rules, _events(6), _placings(), NAMES)
    # In the latest event (the major) Bob scored 12, Cat 3: Bob still first; Dan did not
    # play it, Eve did not either: event 5 (Eve 18, Dan 8) puts Eve above Dan.
    assert [r.name for r in rows][:5] == ["Bob", "Cat", "Ann", "Eve", "Dan"]


def test_what_each_needs_in_the_next_event_while_two_remain():
    rows = {r.name: r for r in calc.standings(RULES, _events(4), _placings(4), NAMES)}
    # After four events: Cat 25+25+18+12 = 80, Bob 25+18+12+12 = 67, Ann 25+18+12+8 = 63,
    # Dan 18+12+12+8 = 50, Eve 12+12+8+8 = 40.
    assert [(r.name, calc.fmt(r.total)) for r in sorted(rows.values(), key=lambda r: r.rank)] == [
        ("Cat", "80"),
        ("Bob", "67"),
        ("Ann", "63"),
        ("Dan", "50"),
        ("Eve", "40"),
    ]
    # Bob needs more than 13 (his 12 dropped for it): a runner-up place (18) makes 73,
    # not enough; winning Open 5 makes 80, level, not past. Both events won: 25 and 37.5.
    assert rows["Bob"].needs_above == (
        "To pass Cat (80): more than Open 5 alone; winning all 2 events left would make 105.5."
    )
    # Ann to pass Bob (67): a semi-final (12 for her 8) makes 67, level; runner-up 73.
    assert rows["Ann"].needs_above == (
        "To pass Bob (67): runner-up or better in Open 5 (would make 73), if Bob scores no more."
    )
    # Eve to overtake Cat (80): winning both left gives 25+37.5+12+12 = 86.5 > 80.
    assert "winning all 2 events left would make 86.5" in rows["Eve"].needs_leader
    # Dan to pass Ann (63): 50 - 8 + 25 = 67 with a win; 60 with runner-up.
    assert rows["Dan"].needs_above.startswith("To pass Ann (63): winner in Open 5")
    assert rows["Cat"].needs_above == "" and rows["Cat"].needs_leader == ""


def test_out_of_reach_when_winning_every_event_left_is_not_enough():
    placings = {1: {101: 1, 102: 1, 103: 1, 104: 1, 105: 1}, 2: {101: 9}}
    rows = calc.standings(RULES, _events(5), placings, {1: "Ann", 2: "Bob"})
    # Bob: 2 + 37.5 (the major won) = 39.5 at most; Ann has 100.
    assert rows[1].needs_above == (
        "Out of reach of Ann (100): winning every event left makes at most 39.5."
    )


def test_points_by_placing_weighted():
    rules = calc.Rules(best_n=2, basis=calc.PLACING, table=(D(10), D(7), D(5)))
    events = [calc.Event(1, 1, "A", D(1), True), calc.Event(2, 2, "B", D(2), True)]
    rows = calc.standings(rules, events, {1: {1: 3, 2: 2}, 2: {1: 1, 2: 4}}, {1: "X", 2: "Y"})
    assert [(r.name, calc.fmt(r.total)) for r in rows] == [("X", "19"), ("Y", "10")]
    assert [r.label for r in rows[0].results] == ["3rd", "2nd"]
