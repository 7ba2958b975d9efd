"""Table configs: the examples load; a bad config is one ConfigError line naming file, key and
reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablectl.config import ConfigError, check_address, load_config

CONFIGS = Path(__file__).resolve().parents[2] / "config" / "tables"
GOOD = """\
table = "t1"
game = "one-card-poker"
decks = 6
penetration_cap = 90
seats = 7
min_bet = 5
max_bet = 500
[devices.shoe]
driver = "shoe"
address = "/dev/ttyUSB0"
[house_rules]
dp_card = "last"
[log]
dir = "logs"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error(tmp_path: Path, old: str, new: str) -> str:
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path))
    return message


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_example_config_loads(path):
    config = load_config(path)
    assert config.game in path.stem


def test_one_config_per_game_and_one_for_the_money_twice():
    games = sorted(load_config(p).game for p in CONFIGS.glob("*.toml"))
    assert games == sorted(
        ["one-card-poker", "three-card-poker", "one-for-the-money", "one-for-the-money", "three-card-poker-florida", "texas-holdem-bonus"]
    )
    drivers = {load_config(p).card_driver for p in CONFIGS.glob("one-for-the-money*.toml")}
    assert drivers == {"csm", "shoe"}


def test_values_are_typed(tmp_path):
    config = load_config(write(tmp_path, GOOD))
    assert (config.penetration_cap, config.min_bet, config.max_bet, config.card_device) == (0.9, 500, 50000, "shoe")
    assert config.procedure_rules.dp_card == "last"


def test_bad_toml_names_the_line(tmp_path):
    assert "line 5" in error(tmp_path, "seats = 7", "seats = = 7")


def test_an_unknown_game(tmp_path):
    assert ": game: unknown game 'baccarat'" in error(tmp_path, '"one-card-poker"', '"baccarat"')


def test_negative_decks(tmp_path):
    assert ": decks: must be at least 1" in error(tmp_path, "decks = 6", "decks = -2")


def test_a_cap_above_100_percent(tmp_path):
    assert ": penetration_cap: 120%" in error(tmp_path, "penetration_cap = 90", "penetration_cap = 120")


@pytest.mark.parametrize(("cap", "cards"), [("0.1", 0), ("1e-300", 0), ("0.5", 1)])
def test_a_cap_that_leaves_no_card_for_a_round_after_the_shuffle_burn_is_refused(tmp_path, cap, cards):
    message = error(tmp_path, "penetration_cap = 90", f"penetration_cap = {cap}")
    assert message.endswith(
        f": penetration_cap: {cap}%: a cap of {cards} of the 312 cards leaves no card to deal a round "
        "after the shuffle's 1 burn(s); at least 0.7%"
    )


@pytest.mark.parametrize("address", ["ttyUSB0", "socket://host", "socket://host:99999", "usb:xyz:1", "ftp://x:1"])
def test_an_address_that_cannot_be_parsed(tmp_path, address):
    assert ": devices.shoe.address: " in error(tmp_path, "/dev/ttyUSB0", address)


@pytest.mark.parametrize("address", ["/dev/ttyUSB0", "socket://10.0.0.2:7000", "rfc2217://h:2217", "usb:1209:7ab1", "usb:1209:7ab1:SN42",
                                     "socket://10.0.0.2:7000?logging=debug", "rfc2217://h:2217?ign_set_control&timeout=10",
                                     "rfc2217://h:2217?poll_modem&logging=info&timeout=0.5"])
def test_addresses_that_parse(address):
    assert check_address(address) == address


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("socket://127.0.0.1:4001?foo=bar", "unknown option 'foo' for socket:// (it takes logging)"),
        ("socket://127.0.0.1:4001?timeout=10", "unknown option 'timeout' for socket://"),
        ("socket://127.0.0.1:4001?logging=loud", "logging='loud': expected one of debug, info, warning, error"),
        ("rfc2217://127.0.0.1:4001?timeout=abc", "timeout='abc': expected a number of seconds above 0"),
        ("rfc2217://127.0.0.1:4001?ign_set_control&purge", "unknown option 'purge' for rfc2217://"),
    ],
)
def test_an_address_option_pyserial_would_refuse_at_open_is_refused_naming_the_address_key(tmp_path, address, reason):
    import serial.rfc2217
    import serial.urlhandler.protocol_socket

    handler = serial.rfc2217.Serial if address.startswith("rfc2217") else serial.urlhandler.protocol_socket.Serial
    # what run would meet when it opens the device (pyserial's socket:// handler fails to format
    # its own message, so a KeyError)
    with pytest.raises((serial.SerialException, KeyError)):
        handler().from_url(address)
    assert f": devices.shoe.address: {address!r}: {reason}" in error(tmp_path, "/dev/ttyUSB0", address)


@pytest.mark.parametrize("address", ["loop://", "spy:///dev/ttyUSB0"])
def test_a_pyserial_test_scheme_is_not_a_device_address(tmp_path, address):
    assert f": devices.shoe.address: {address!r}: unknown scheme" in error(tmp_path, "/dev/ttyUSB0", address)


def test_an_unknown_house_rule(tmp_path):
    assert ": house_rules.dp_kard: unknown house rule" in error(tmp_path, "dp_card", "dp_kard")


def test_a_bad_house_rule_value(tmp_path):
    assert ": house_rules.dp_card: expected one of last, first" in error(tmp_path, '"last"', '"middle"')


def test_a_bad_pay_table_line(tmp_path):
    message = error(tmp_path, "[log]", "[pay_tables.tie_wager]\nany_tie = -1\n[log]")
    assert ": pay_tables.tie_wager.any_tie: " in message


def test_a_game_from_a_device_it_cannot_be_dealt_from(tmp_path):
    assert ": devices.shoe.driver: One Card Poker is dealt from shoe or csm" in error(tmp_path, 'driver = "shoe"', 'driver = "shuffler"')


def test_decks_the_game_is_not_dealt_with(tmp_path):
    assert ": decks: One Card Poker is dealt with 6 deck(s)" in error(tmp_path, "decks = 6", "decks = 2")


def test_a_missing_key(tmp_path):
    assert ": seats: missing" in error(tmp_path, "seats = 7\n", "")


def test_an_unknown_key(tmp_path):
    assert ": colour: unknown key" in error(tmp_path, "seats = 7", 'seats = 7\ncolour = "green"')


def test_bets_in_whole_cents(tmp_path):
    assert ": min_bet: " in error(tmp_path, "min_bet = 5", "min_bet = 5.001")


def test_supervisor_credentials_are_stored_hashes(tmp_path):
    from tablectl.supervisor import hash_credential

    stored = hash_credential("pw", n=16)
    config = load_config(write(tmp_path, GOOD.replace("[log]", f'[supervisors]\npit-anna = "{stored}"\n[log]')))
    assert config.supervisors == {"pit-anna": stored}


def test_a_supervisor_credential_that_is_not_a_hash(tmp_path):
    assert ": supervisors.pit-anna: expected scrypt" in error(tmp_path, "[log]", '[supervisors]\npit-anna = "hunter2"\n[log]')
