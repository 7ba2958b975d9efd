"""``logread.orjson_keys``: the names of fields as the str objects orjson gives the keys of the dicts
it parses (a lookup with them skips comparing text). A speed-up only: what a lookup finds must not
depend on it."""

from __future__ import annotations

import operator

import orjson

from tablectl.review.logread import orjson_keys


def test_orjson_keys_are_the_names_in_order() -> None:
    assert orjson_keys("seq", "event", "card") == ("seq", "event", "card")


def test_a_getter_of_orjson_keys_finds_the_fields_of_a_parsed_line_and_of_a_dict_made_here() -> None:
    get = operator.itemgetter(*orjson_keys("card", "seq"))
    parsed = orjson.loads(b'{"seq":1,"event":"dealt","card":"AS"}')
    made = {"seq": 1, "event": "dealt", "card": "AS"}
    assert get(parsed) == get(made) == ("AS", 1)
