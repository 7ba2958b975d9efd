"""Texas Hold'em Bonus Turn and River decisions valued under every hidden-card hypothesis of one
decision together (``gamemath.decisions.holdem_hidden``, through ``decision_value.decision_values_many``):
the same exact Fractions as valuing each sight alone (``decision_holdem.values``, the reference),
on random decisions of each street and every kind of hypothesis."""

from __future__ import annotations

import random

import pytest

from tablectl.gamemath.decisions import holdem as decision_holdem
from tablectl.gamemath.decisions.holdem_hidden import values_many
from tablectl.gamemath.decisions.sight import HIGH, LOW, Sight, is_high
from tablectl.gamemath.decisions.value import DecisionError, clear_cache, decision_values, decision_values_many
from tablectl.rules.houserules import TexasHoldemBonusRules

GAME = "texas-holdem-bonus"
TURN, RIVER = ("turn", "check"), ("river", "check")
DECISIONS = 24  # random decisions per street and variant


def _decision(rnd: random.Random, street: tuple[str, ...]) -> tuple[Sight, list[Sight]]:
    """A random decision (own cards, board, earlier decisions, the dealer's cards, two partners)
    and its sights: own, each dealer card seen, the edge sort, each partner's cards seen."""
    deck = rnd.sample(range(52), 2 + 5 + 2 + 4)
    own, board, dealer, partners = deck[:2], deck[2:7], deck[7:9], (deck[9:11], deck[11:13])
    made = ("flop",) if street == TURN else ("flop", rnd.choice(("turn", "check")))
    sight = Sight(tuple(own), board=tuple(board[: 3 if street == TURN else 4]), made=made)
    hypotheses = [
        Sight(sight.own, sight.board, dealer=(dealer[0], None), made=made),
        Sight(sight.own, sight.board, dealer=(None, dealer[1]), made=made),
        Sight(sight.own, sight.board, dealer=tuple(HIGH if is_high(c) else LOW for c in dealer), made=made),
        *(Sight(sight.own, sight.board, others=tuple(p), made=made) for p in partners),
    ]
    return sight, [sight, *hypotheses]


@pytest.mark.parametrize("variant", ["straight", "flush"])
@pytest.mark.parametrize("street", [TURN, RIVER], ids=["turn", "river"])
def test_every_hypothesis_valued_together_equals_each_valued_alone(street: tuple[str, ...], variant: str) -> None:
    rules = TexasHoldemBonusRules(ante_pays_from=variant)
    rnd = random.Random(f"{street[0]}-{variant}")
    for _ in range(DECISIONS):
        _, sights = _decision(rnd, street)
        together = values_many(street, sights, rules)
        alone = [decision_holdem.values(street, s, rules) for s in sights]
        assert [v.values if v else None for v in together] == [v.values for v in alone], sights[0]


def test_a_partner_already_seen_in_every_sight_is_out_of_the_deck_for_each() -> None:
    rules = TexasHoldemBonusRules()
    rnd = random.Random(5)
    for street in (TURN, RIVER):
        for _ in range(4):
            _, sights = _decision(rnd, street)
            exposed = tuple(c for c in range(52) if c not in sights[0].seen() and c not in sights[-1].others
                            and all(c not in s.seen() for s in sights))[:2]
            seen = [Sight(s.own, s.board, s.dealer, s.others + exposed, s.made) for s in sights]
            together = values_many(street, seen, rules)
            assert [v.values if v else None for v in together] == [decision_holdem.values(street, s, rules).values for s in seen]


def test_both_dealer_cards_seen_is_left_to_the_one_at_a_time_valuation() -> None:
    sight = Sight((0, 51), board=(10, 20, 30), dealer=(5, 6), made=("flop",))
    assert values_many(TURN, [sight], TexasHoldemBonusRules()) == [None]


def test_decision_values_many_gives_what_decision_values_gives_one_at_a_time() -> None:
    _, sights = _decision(random.Random(9), TURN)
    both_seen = Sight(sights[0].own, sights[0].board, dealer=(sights[1].dealer[0], sights[2].dealer[1]), made=sights[0].made)
    clear_cache()
    together = decision_values_many(GAME, TURN, [*sights, both_seen])
    clear_cache()
    assert together == [decision_values(GAME, TURN, s) for s in [*sights, both_seen]]


def test_a_card_seen_twice_is_a_decision_error_naming_the_cards() -> None:
    sight = Sight((0, 51), board=(10, 20, 30), made=("flop",))
    with pytest.raises(DecisionError, match=r"texas-holdem-bonus: a card seen twice .*\[0, 0, 10, 20, 30, 51\]"):
        decision_values_many(GAME, TURN, [sight, Sight((0, 51), board=(10, 20, 30), others=(0,), made=("flop",))])
