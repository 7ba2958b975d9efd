"""Table configuration: one TOML file per table, validated into typed objects (``tablectl.checks``).

::

    table = "ocp-1"
    game = "one-card-poker"
    decks = 6
    penetration_cap = 90          # percent of the shoe, 0 < cap <= 100
    seats = 7
    min_bet = 5                   # dollars (cents allowed: 5.50, unless the game's wager is whole dollars)
    max_bet = 500                 # at most 1,000,000 dollars
    # max_payout = 25000          # dollars: no bet's top payout at its maximum may exceed it

    [limits.tie]                  # any bet's limits in dollars (min, max, unit); the rest default
    min = 1                       # (tablectl.rules.bets: the primary bets min_bet/max_bet,
    max = 100                     # each side bet its own)
    unit = 1

    [devices.shoe]                # name -> driver + address
    driver = "shoe"
    address = "/dev/ttyUSB0"      # or socket://host:port, rfc2217://host:port, usb:VID:PID[:SERIAL]

    [house_rules]                 # procedure rules (tablectl.games) and settlement rules (tablectl.rules)
    dp_card = "last"

    [pay_tables.tie_wager]        # any pay table of the game's settlement rules, line by line
    any_tie = 4

    [supervisors]                 # id -> credential hash (tablectl config hash-credential)
    pit-anna = "scrypt$16384$8$1$..."

    [log]
    dir = "/var/lib/tablectl/ocp-1"
    signing_key = "/etc/tablectl/ocp-1.key"
    rotate = "shoe"
    # allow_unsigned = true      # production without a signing key (``production_risks``)
    # allow_no_fsync = true      # production with fsync = false

``load_config(path)`` returns a ``TableConfig`` or raises ``ConfigError``: one line naming the
file, the key and the reason. Every number is bounded by what a table can mean (the ``MAX_*``
constants): finite, in range, whole where it counts things, so no configured value can make a
running table allocate, loop or overflow. ``production_risks(config)`` lists what a production
table (real devices) must not run with unless the config says so explicitly: no signing key,
``fsync = false``.

Names and text are checked as strictly: the table id and each device name are whole-string
matches of ``TABLE_ID`` (a trailing newline is not an id); a supervisor id is printable and not
padded (``supervisor_id_problem``); no key or string anywhere may hold a control character (they
reach terminals). The file must be a regular file of at most ``MAX_CONFIG_BYTES``
(``tablectl.files.read_regular``); TOML nested too deep to parse is one line too.
"""

from __future__ import annotations

import dataclasses
import math
import re
import tomllib
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

from tablectl.cards import DECK_SIZE
from tablectl.checks import (
    REQUIRED,
    Check,
    Invalid,
    Loc,
    as_bool,
    as_int,
    as_path,
    as_str,
    as_table,
    int_between,
    one_of,
    optional,
    table_fields,
    table_of,
)
from tablectl.connection import Credentials
from tablectl.files import MAX_CONFIG_BYTES, read_regular
from tablectl.games import GAMES, GameDef
from tablectl.rules.bets import BetLimit, bet_names, money, table_limits, top_pays
from tablectl.rules.configure import RulesConfigError
from tablectl.rules.houserules import RULES_BY_GAME, rules_from_dict
from tablectl.text import printable

CARD_DRIVERS = ("shoe", "csm", "shuffler")

# What a table can mean: every configured number is checked against these.
MAX_DECKS = 8
MAX_AMOUNT = Decimal(1_000_000)  # dollars: a table limit or a wager
MAX_BURNS = 10  # cards burned at one time (after a shuffle, at a dealer change, before a war card)
MAX_WAR_RESERVE = 10  # wars a normal round keeps cards in reserve for
MAX_PAY = 100_000  # a pay table's payout, to 1
MAX_CHECKPOINT_EVERY = 1_000_000  # log lines between signed checkpoints
MIN_ANSWER_TIMEOUT, MAX_ANSWER_TIMEOUT = 0.05, 60.0  # seconds a driver waits for a device's answer
MAX_EVENT_NO = 2**32 - 1  # a device event number (32 bits on the wire)
#: Games whose primary wager is in whole dollars (their table limits are too).
WHOLE_DOLLAR_GAMES = frozenset({"one-card-poker"})
#: a table id or a device name: the whole string (``\Z``: a ``$`` would let a trailing newline
#: through, into the log's file names)
TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\Z")
DEVICE_NAME = TABLE_ID
MAX_SUPERVISOR_ID = 64
_SERIAL_SCHEMES = ("socket", "rfc2217")
#: the options pyserial takes on a URL address, by scheme (serial/urlhandler/protocol_socket.py and
#: protocol_rfc2217.py); it refuses any other, but only when the device is opened
_URL_OPTIONS = {"socket": ("logging",), "rfc2217": ("ign_set_control", "poll_modem", "timeout", "logging")}
_LOG_LEVELS = ("debug", "info", "warning", "error")


class ConfigError(ValueError):
    """A table configuration that cannot be used; the message is one line: file, key, reason
    (any control character in it, say from a key's name, is written as an escape)."""

    def __init__(self, message: str) -> None:
        super().__init__(printable(message))


def check_address(address: str) -> str:
    """``address`` if it is a device address tablectl can open, else ``ValueError`` (why)."""
    text = address.strip()
    if not text:
        raise ValueError("empty address")
    if text.lower().startswith(("usb:", "usbserial:")):
        parts = text.split(":", 3)
        if len(parts) < 3:
            raise ValueError(f"{text!r}: expected {parts[0]}:VID:PID[:SERIAL]")
        try:
            vid, pid = int(parts[1], 16), int(parts[2], 16)
        except ValueError:
            raise ValueError(f"{text!r}: VID and PID must be hexadecimal") from None
        if not (0 <= vid <= 0xFFFF and 0 <= pid <= 0xFFFF):
            raise ValueError(f"{text!r}: VID and PID are 16-bit")
        return text
    if "://" in text:
        parts_url = urlsplit(text)
        scheme = parts_url.scheme.lower()
        if scheme not in _SERIAL_SCHEMES:
            raise ValueError(f"{text!r}: unknown scheme {scheme!r} (expected {', '.join(_SERIAL_SCHEMES)})")
        if scheme in ("socket", "rfc2217"):
            try:
                port = parts_url.port
            except ValueError:
                raise ValueError(f"{text!r}: the port is not a number 1-65535") from None
            if not parts_url.hostname or port is None or not 0 < port < 65536:
                raise ValueError(f"{text!r}: expected {scheme}://host:port")
            problem = _url_option_problem(scheme, parts_url.query)
            if problem:
                raise ValueError(f"{text!r}: {problem}")
        return text
    if text.startswith("/") or re.fullmatch(r"COM\d+", text, re.IGNORECASE):
        return text
    raise ValueError(f"{text!r}: expected a serial device path (/dev/ttyUSB0), socket://host:port, rfc2217://host:port, usb:VID:PID[:SERIAL] or usbserial:VID:PID[:SERIAL]")


def _url_option_problem(scheme: str, query: str) -> str | None:
    """What pyserial would refuse in the query options of a ``scheme://`` address, or None."""
    known = _URL_OPTIONS[scheme]
    for option, values in parse_qs(query, keep_blank_values=True).items():  # as pyserial reads them
        if option not in known:
            return f"unknown option {option!r} for {scheme}:// (it takes {', '.join(known)})"
        for value in values:
            if option == "logging" and value not in _LOG_LEVELS:
                return f"logging={value!r}: expected one of {', '.join(_LOG_LEVELS)}"
            if option == "timeout" and not _seconds(value) > 0:
                return f"timeout={value!r}: expected a number of seconds above 0"
    return None


def _seconds(text: str) -> float:
    """``text`` as a finite number, or NaN."""
    try:
        number = float(text)
    except ValueError:
        return math.nan
    return number if math.isfinite(number) else math.nan


def _cents(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{_short(value)} is not an amount in dollars")
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise ValueError(f"{_short(value)} is not an amount in dollars") from None
    if not amount.is_finite() or not 0 < amount <= MAX_AMOUNT:
        raise ValueError(f"{_short(value)}: expected an amount in dollars above 0 and at most {MAX_AMOUNT:,}")
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise ValueError(f"{_short(value)} is not a positive amount in whole cents")
    return int(cents)


def _short(value: Any, limit: int = 40) -> str:
    """``value`` for an error line: its repr, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def supervisor_id_problem(supervisor: str) -> str | None:
    """Why ``supervisor`` cannot be a supervisor id, or None. The display takes an id as typed
    (printable characters) and strips it: an id that is empty, padded with spaces, longer than
    ``MAX_SUPERVISOR_ID`` or holding a control character could never sign in."""
    if not supervisor.strip():
        return "an empty supervisor id could never sign in"
    if supervisor != supervisor.strip():
        return "a supervisor id padded with spaces could never sign in (the display strips what is typed)"
    if not supervisor.isprintable():
        return "a supervisor id with a control character could never sign in"
    if len(supervisor) > MAX_SUPERVISOR_ID:
        return f"a supervisor id is at most {MAX_SUPERVISOR_ID} characters"
    return None


def _control_character(data: Mapping[str, Any]) -> tuple[str, str] | None:
    """(key, reason) for the first key or string value in parsed TOML ``data`` holding a
    character that is not printable (ESC, BEL, a newline, bidi controls): names and ids reach
    terminals and log file names, and must not drive a terminal (an OSC 52 clipboard write, a
    screen clear). Walks without recursion, so any depth tomllib accepts is safe."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, Mapping):
            items = [(f"{where}.{k}" if where else str(k), v, k) for k, v in value.items()]
            for path, _, key in items:
                if isinstance(key, str) and not key.isprintable():
                    return path, "expected a key name without control characters"
            stack.extend((path, v) for path, v, _ in reversed(items))
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, str) and not value.isprintable():
            return where, f"{_short(value)}: expected text without control characters"
    return None


def _plain_path(value: Path) -> Path:
    if any(ord(c) < 32 or ord(c) == 127 for c in str(value)) or not str(value).strip():
        raise ValueError(f"{_short(str(value))}: expected a file system path without control characters")
    return value


def _rule_bound(name: str) -> tuple[int, str]:
    """The largest value a rule's whole-number setting ``name`` can mean, and what it counts."""
    if name.endswith("_burns"):
        return MAX_BURNS, "burns"
    if name == "war_reserve":
        return MAX_WAR_RESERVE, "wars"
    return MAX_PAY, "to 1"


def _rule_number_problem(rules: Any, where: str = "") -> tuple[str, str] | None:
    """(path, reason) for the first whole number in a (nested) rules dataclass beyond
    ``_rule_bound``; None when all are within."""
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        path = f"{where}.{f.name}" if where else f.name
        if dataclasses.is_dataclass(value):
            problem = _rule_number_problem(value, path)
            if problem is not None:
                return problem
        elif isinstance(value, int) and not isinstance(value, bool):
            top, unit = _rule_bound(f.name)
            if not 0 <= value <= top:
                return path, f"{_short(value)}: expected 0 to {top:,} ({unit})"
    return None


def _checked(check: Check, *after: Callable[[Any], Any]) -> Check:
    """``check``, then each of ``after`` on its result: a ``ValueError`` from one is the field's
    problem (a ``_KeyError`` names its own key)."""

    def run(value: Any, loc: Loc) -> Any:
        result = check(value, loc)
        for step in after:
            result = _step(step, result, loc)
        return result

    return run


def _before(convert: Callable[[Any], Any]) -> Check:
    """A field read by ``convert`` alone (a ``ValueError`` from it is the field's problem)."""
    return lambda value, loc: _step(convert, value, loc)


def _step(step: Callable[[Any], Any], value: Any, loc: Loc) -> Any:
    try:
        return step(value)
    except _KeyError as e:
        raise Invalid((e.key,), e.reason) from None
    except ValueError as e:
        raise Invalid(loc, str(e)) from None


def _driver(value: str) -> str:
    from tablectl.drivers.registry import driver_names, is_driver

    if not is_driver(value):
        raise ValueError(f"unknown driver {value!r} (known: {', '.join(driver_names())})")
    return value


@dataclasses.dataclass(frozen=True)
class DeviceConfig:
    """One device of the table: which driver talks to it and where it is."""

    driver: str
    address: str

    @classmethod
    def read(cls, value: Any, loc: Loc) -> DeviceConfig:
        """From its TOML table at ``loc`` (``Invalid`` on the first problem)."""
        return cls(**table_fields(value, loc, cls.__name__, (
            ("driver", _checked(as_str, _driver), REQUIRED),
            ("address", _checked(as_str, check_address), REQUIRED),
        )))


def _amount_or_none(value: Any) -> int | None:
    return None if value is None else _cents(value)


@dataclasses.dataclass(frozen=True)
class BetLimitConfig:
    """One bet's limits as configured (``[limits.BET]``), in cents; omitted keys keep the bet's
    default (``tablectl.rules.bets``)."""

    min: int | None = None
    max: int | None = None
    unit: int | None = None

    @classmethod
    def read(cls, value: Any, loc: Loc) -> BetLimitConfig:
        """From its TOML table at ``loc`` (``Invalid`` on the first problem)."""
        amount = _before(_amount_or_none)
        return cls(**table_fields(value, loc, cls.__name__, (
            ("min", amount, None), ("max", amount, None), ("unit", amount, None),
        )))


def _path_or_none(value: Path | None) -> Path | None:
    return None if value is None else _plain_path(value)


@dataclasses.dataclass(frozen=True)
class LogConfig:
    """Where and how the table's card event log is written."""

    dir: Path
    signing_key: Path | None = None
    #: the key signing_key replaces: it signs the hand-over (a key_rotation checkpoint) once
    previous_signing_key: Path | None = None
    rotate: Literal["shoe", "day", "never"] = "shoe"
    checkpoint_every: int = 1000
    fsync: bool = True
    allow_unsigned: bool = False  # a production table may run without a signing key
    allow_no_fsync: bool = False  # a production table may run with fsync = false

    @classmethod
    def read(cls, value: Any, loc: Loc) -> LogConfig:
        """From its TOML table at ``loc`` (``Invalid`` on the first problem)."""
        path = _checked(optional(as_path), _path_or_none)
        return cls(**table_fields(value, loc, cls.__name__, (
            ("dir", _checked(as_path, _plain_path), REQUIRED),
            ("signing_key", path, None),
            ("previous_signing_key", path, None),
            ("rotate", one_of("shoe", "day", "never"), "shoe"),
            ("checkpoint_every", int_between(0, MAX_CHECKPOINT_EVERY), 1000),
            ("fsync", as_bool, True),
            ("allow_unsigned", as_bool, False),
            ("allow_no_fsync", as_bool, False),
        )))


@dataclasses.dataclass(frozen=True)
class PublishConfig:
    """``[publish]``: where the table's publisher sends its log (``tablectl.live``, docs/live.md):
    the broker's URL (several, comma-separated: a cluster's nodes) and how to sign in and TLS
    (``creds``, ``nkey``, ``user`` and ``password_file``, ``tls_ca``, ``tls_cert``, ``tls_key``:
    ``tablectl.connection.Credentials``), files kept apart from the log folder. ``drain``: seconds
    the publisher may go on sending after the table stops."""

    url: str
    credentials: Credentials = Credentials()
    drain: float = 5.0

    @classmethod
    def read(cls, value: Any, loc: Loc) -> PublishConfig:
        """From its TOML table at ``loc`` (``Invalid`` on the first problem)."""
        path = _checked(optional(as_path), _path_or_none)
        settings = table_fields(value, loc, cls.__name__, (
            ("url", as_str, REQUIRED), ("creds", path, None), ("nkey", path, None), ("user", optional(as_str), None),
            ("password_file", path, None), ("tls_ca", path, None), ("tls_cert", path, None), ("tls_key", path, None),
            ("drain", _before(_drain), 5.0),
        ))
        return cls(settings.pop("url"), drain=settings.pop("drain"), credentials=Credentials(**settings))


@dataclasses.dataclass(frozen=True)
class SimulateConfig:
    """``[simulate]``: how the table runs on simulated hardware (``tablectl run --simulate``):
    ``dealers``, the ids the virtual dealer signs in, in turn (none: ids of this table's own)."""

    dealers: tuple[str, ...] = ()

    @classmethod
    def read(cls, value: Any, loc: Loc) -> SimulateConfig:
        """From its TOML table at ``loc`` (``Invalid`` on the first problem)."""
        return cls(**table_fields(value, loc, cls.__name__, (("dealers", _dealer_ids, ()),)))


def _dealer_ids(value: Any, loc: Loc) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise Invalid(loc, "Input should be a list of dealer ids")
    ids = tuple(as_str(item, (*loc, str(i))) for i, item in enumerate(value))
    for i, dealer in enumerate(ids):
        if not dealer.strip() or dealer != printable(dealer) or len(dealer) > 64:
            raise Invalid((*loc, str(i)), f"{_short(dealer)}: a dealer id is 1 to 64 printable characters")
    if len(set(ids)) < len(ids):
        raise Invalid(loc, "a dealer id is listed twice")
    return ids


def _drain(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 60:
        raise ValueError(f"{_short(value)}: seconds, 0 to 60")
    return float(value)


def _table_id(value: str) -> str:
    if not TABLE_ID.fullmatch(value):
        raise ValueError(f"{value!r}: letters, digits, '.', '_', '-' (at most 64)")
    return value


def _game(value: str) -> str:
    if value not in GAMES:
        raise ValueError(f"unknown game {value!r} (expected one of {', '.join(GAMES)})")
    return value


def _decks(value: int) -> int:
    if not 1 <= value <= MAX_DECKS:
        raise ValueError(f"must be at least 1, not {_short(value)}" if value < 1 else f"at most {MAX_DECKS}, not {_short(value)}")
    return value


def _cap(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{_short(value)}: expected a percentage, 0 < cap <= 100")
    if not 0 < value <= 100:  # also refuses nan
        raise ValueError(f"{_short(value)}%: must be above 0 and at most 100")
    return float(value) / 100


def _supervisors(value: dict[str, str]) -> dict[str, str]:
    from tablectl.supervisor import CredentialFormatError, parse_stored

    for who, stored in value.items():
        problem = supervisor_id_problem(who)
        if problem is not None:
            raise _KeyError(f"supervisors.{who}", f"{_short(who)}: {problem}")
        try:
            parse_stored(stored)
        except CredentialFormatError as e:
            raise _KeyError(f"supervisors.{who}", str(e)) from None
    return value


def _device_names(value: dict[str, DeviceConfig]) -> dict[str, DeviceConfig]:
    for name in value:
        if not DEVICE_NAME.fullmatch(name):
            raise _KeyError(f"devices.{name}", "a device name is letters, digits, '.', '_', '-' (at most 64)")
    return value


_TABLE_FIELDS: tuple[tuple[str, Check, Any], ...] = (
    ("table", _checked(as_str, _table_id), REQUIRED),
    ("game", _checked(as_str, _game), REQUIRED),
    ("decks", _checked(as_int, _decks), REQUIRED),
    ("penetration_cap", _before(_cap), 0.9),
    ("seats", as_int, REQUIRED),
    ("min_bet", _before(_cents), REQUIRED),
    ("max_bet", _before(_cents), REQUIRED),
    ("max_payout", _before(_amount_or_none), None),
    ("limits", table_of(BetLimitConfig.read), dict),
    ("devices", _checked(table_of(DeviceConfig.read), _device_names), REQUIRED),
    ("house_rules", as_table, dict),
    ("pay_tables", as_table, dict),
    ("supervisors", _checked(table_of(as_str), _supervisors), dict),
    ("allow_no_supervisors", as_bool, False),
    ("demo", as_bool, False),
    ("log", LogConfig.read, REQUIRED),
    ("publish", optional(PublishConfig.read), None),
    ("simulate", SimulateConfig.read, SimulateConfig),
    ("source", optional(as_path), None),
)


@dataclasses.dataclass(frozen=True)
class TableConfig:
    """A validated table configuration. Amounts are cents; ``penetration_cap`` is a fraction.
    Made by ``parse_config`` (or ``TableConfig.read``), which checks every field and then the
    whole (``check``)."""

    table: str
    game: str
    decks: int
    seats: int
    min_bet: int
    max_bet: int
    devices: dict[str, DeviceConfig]
    log: LogConfig
    penetration_cap: float = 0.9
    max_payout: int | None = None
    limits: dict[str, BetLimitConfig] = dataclasses.field(default_factory=dict)
    house_rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    pay_tables: dict[str, Any] = dataclasses.field(default_factory=dict)
    supervisors: dict[str, str] = dataclasses.field(default_factory=dict)
    allow_no_supervisors: bool = False  # a production table may run with nobody to resolve a hold
    demo: bool = False  # a shipped example, for `tablectl run --simulate`, never a live table
    publish: PublishConfig | None = None  # [publish]: stream the log to the floor's broker
    simulate: SimulateConfig = SimulateConfig()  # [simulate]: on simulated hardware
    source: Path | None = None

    @classmethod
    def read(cls, value: Any) -> TableConfig:
        """From a parsed TOML document: every field in order, then the whole (``Invalid`` on
        the first problem)."""
        config = cls(**table_fields(value, (), cls.__name__, _TABLE_FIELDS))
        _step(lambda c: c.check(), config, ())
        return config

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> TableConfig:
        """This config with the fields in ``update`` replaced (not checked again)."""
        return dataclasses.replace(self, **(update or {}))

    def check(self) -> None:
        """The fields agree with each other and with the game (``_KeyError`` naming the key)."""
        game = GAMES[self.game]
        if self.decks not in game.decks:
            allowed = " or ".join(str(d) for d in game.decks)
            raise _KeyError("decks", f"{game.title} is dealt with {allowed} deck(s), not {self.decks}")
        if not 1 <= self.seats <= game.max_seats:
            raise _KeyError("seats", f"{game.title} has 1 to {game.max_seats} seats, not {_short(self.seats)}")
        if self.whole_dollar_bets:
            for key in ("min_bet", "max_bet"):
                cents = getattr(self, key)
                if cents % 100:
                    raise _KeyError(key, f"{cents / 100:.2f}: {game.title}'s wager is in whole dollars")
        if self.max_bet < self.min_bet:
            raise _KeyError("max_bet", "is below min_bet")
        sources = [n for n, d in self.devices.items() if d.driver in CARD_DRIVERS]
        if len(sources) != 1:
            raise _KeyError("devices", f"needs exactly one card device (driver {', '.join(CARD_DRIVERS)}), found {len(sources)}")
        driver = self.devices[sources[0]].driver
        if driver not in game.devices:
            raise _KeyError(
                f"devices.{sources[0]}.driver",
                f"{game.title} is dealt from {' or '.join(game.devices)}, not a {driver}",
            )
        if driver == "shuffler" and game.shuffle_burns(self.procedure_rules) + game.dealer_change_burns(self.procedure_rules):
            raise _KeyError(f"devices.{sources[0]}.driver", "a hand-forming shuffler cannot deal this game's burns")
        settlement_keys = {f.name for f in dataclasses.fields(RULES_BY_GAME[self.game])}
        rule_keys = game.procedure_keys() | settlement_keys
        for key in self.house_rules:
            if key.replace("-", "_") not in rule_keys:
                raise _KeyError(f"house_rules.{key}", f"unknown house rule (expected one of {', '.join(sorted(rule_keys))})")
        for rules in (self.procedure_rules, self.settlement_rules):
            problem = _rule_number_problem(rules)
            if problem is not None:
                raise _KeyError(self._rule_key(problem[0]), problem[1])
        self._check_cap()
        self._check_limits()

    def _check_cap(self) -> None:
        """The penetration cap leaves a card to deal a round after the shuffle's burns (a
        continuous shuffler has no cap)."""
        if self.card_driver == "csm":
            return
        size = self.decks * DECK_SIZE
        burns = self.game_def.shuffle_burns(self.procedure_rules)
        cards = math.floor(size * self.penetration_cap + 1e-9)  # as tablectl.table.procedure.penetration.cap_cards
        if cards > burns:
            return
        least = math.ceil((burns + 1) * 1000 / size) / 10  # percent, one decimal, rounded up
        after = f" after the shuffle's {burns} burn(s)" if burns else ""
        raise _KeyError(
            "penetration_cap",
            f"{self.penetration_cap * 100:g}%: a cap of {cards} of the {size} cards leaves no card to deal a round{after}; at least {least:g}%",
        )

    def _check_limits(self) -> None:
        """Each ``[limits.BET]`` names a bet of the game, its minimum is not above its maximum, both
        are in its unit, and, when the table sets a ``max_payout``, no bet's top payout at its
        maximum is beyond it."""
        names = self.bet_names
        by_name = {names.get(b, b): b for b in self.game_def.wagers}
        for key in self.limits:
            if key not in by_name and key not in self.game_def.wagers:
                raise _KeyError(f"limits.{key}", f"no such bet at this table (bets: {', '.join(by_name)})")
        top = top_pays(self.game, self.settlement_rules)
        for bet, limit in self.bet_limits.items():
            key = f"limits.{names.get(bet, bet)}"
            shown = f"{names.get(bet, bet)}"
            if limit.maximum < limit.minimum:
                raise _KeyError(key, f"max {money(limit.maximum)} is below min {money(limit.minimum)}")
            if limit.minimum % limit.unit or limit.maximum % limit.unit:
                raise _KeyError(key, f"min and max must be multiples of the unit {money(limit.unit)}")
            cap = self.max_payout
            if cap is not None and bet in top and limit.maximum * top[bet] > cap:
                raise _KeyError(
                    key,
                    f"a {shown} of {money(limit.maximum)} pays up to {money(limit.maximum * top[bet])} "
                    f"({top[bet]} to 1), beyond max_payout ({money(cap)})",
                )

    # --- derived ----------------------------------------------------------------------------

    @property
    def bet_names(self) -> dict[str, str]:
        """Bet -> the name this table gives it, where it is not the rules engine's name."""
        return bet_names(self.game, self.settlement_rules)

    @property
    def bet_limits(self) -> dict[str, BetLimit]:
        """Every bet placed before the deal -> its limits (``tablectl.rules.bets``), in cents."""
        game = self.game_def
        names = self.bet_names
        unnamed = {names.get(b, b): b for b in game.wagers}
        defaults = table_limits(
            self.game, game.wagers, game.limited, min_bet=self.min_bet, max_bet=self.max_bet,
            whole_dollars=self.whole_dollar_bets,
        )
        out = dict(defaults)
        for key, set_ in self.limits.items():
            bet = unnamed.get(key, key)
            if bet not in defaults:
                continue
            d = defaults[bet]
            out[bet] = BetLimit(
                set_.min if set_.min is not None else d.minimum,
                set_.max if set_.max is not None else d.maximum,
                set_.unit if set_.unit is not None else d.unit,
            )
        return out

    @property
    def game_def(self) -> GameDef:
        return GAMES[self.game]

    @property
    def whole_dollar_bets(self) -> bool:
        """Whether the game's primary wager (and so the table limits) is in whole dollars."""
        return self.game in WHOLE_DOLLAR_GAMES

    @property
    def card_device(self) -> str:
        """The name of the device the cards come from."""
        return next(n for n, d in self.devices.items() if d.driver in CARD_DRIVERS)

    @property
    def card_driver(self) -> str:
        """``shoe``, ``csm`` or ``shuffler``."""
        return self.devices[self.card_device].driver

    @property
    def procedure_rules(self) -> Any:
        """The game's procedure house rules (``tablectl.games``)."""
        game = self.game_def
        keys = game.procedure_keys()
        data = {k: v for k, v in self.house_rules.items() if k.replace("-", "_") in keys}
        try:
            return game.procedure_rules(data)
        except RulesConfigError as e:
            path, _, reason = str(e).partition(": ")
            raise _KeyError(f"house_rules.{path}", reason) from None

    @property
    def settlement_rules(self) -> Any:
        """The game's settlement rules and pay tables (``tablectl.rules.houserules``)."""
        keys = self.game_def.procedure_keys()
        data: dict[str, Any] = {k: v for k, v in self.house_rules.items() if k.replace("-", "_") not in keys}
        for name, table in self.pay_tables.items():
            if name in data:
                raise _KeyError(f"pay_tables.{name}", "also set in house_rules")
            data[name] = table
        try:
            return rules_from_dict(self.game, data)
        except RulesConfigError as e:
            path, _, reason = str(e).partition(": ")
            raise _KeyError(self._rule_key(path), reason) from None

    def _rule_key(self, path: str) -> str:
        """The config key of a rule setting's ``path`` (``tie_wager.any_tie``)."""
        section = "pay_tables" if path.split(".")[0] in self.pay_tables else "house_rules"
        return f"{section}.{path}"


def production_risks(config: TableConfig) -> list[tuple[str, str]]:
    """(key, reason) for each setting a production table (real devices) must not run with
    unless its config allows it by name: no supervisor (``allow_no_supervisors``), no signing key
    (``log.allow_unsigned``) and ``fsync = false`` (``log.allow_no_fsync``)."""
    risks = []
    if not config.supervisors and not config.allow_no_supervisors:
        risks.append(
            ("supervisors", "none configured: the first violation would hold the table for good; add one with `tablectl supervisor add CONFIG ID`, or set allow_no_supervisors = true")
        )
    if config.log.signing_key is None and not config.log.allow_unsigned:
        risks.append(
            ("log.signing_key", "not set: a production log must be signed (tablectl keygen); set log.allow_unsigned = true to run unsigned, or check with --simulate")
        )
    if not config.log.fsync and not config.log.allow_no_fsync:
        risks.append(
            ("log.fsync", "false: a power cut can lose events their device already forgot; set log.allow_no_fsync = true to allow it")
        )
    return risks


class _KeyError(ValueError):
    """A consistency error raised after field validation, with the key it concerns."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(reason)
        self.key = key
        self.reason = reason


def _loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "(top level)"


def parse_config(data: Mapping[str, Any], source: str | Path = "<config>") -> TableConfig:
    """Validate a parsed TOML table into a ``TableConfig`` (``ConfigError`` on the first problem)."""
    control = _control_character(data)
    if control is not None:
        raise ConfigError(f"{source}: {control[0]}: {control[1]}")
    try:
        return TableConfig.read({**data, "source": Path(source)})
    except Invalid as e:
        raise ConfigError(f"{source}: {_loc(e.loc)}: {e.reason}") from None
    except RecursionError:
        raise ConfigError(f"{source}: nested too deeply to be a table config") from None


def load_config(path: str | Path) -> TableConfig:
    """Read and validate a table configuration file: a regular file of at most
    ``MAX_CONFIG_BYTES`` (a FIFO or a device is refused at once, never waited on or read)."""
    path = Path(path)
    try:
        raw = read_regular(path, "config", MAX_CONFIG_BYTES)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: bad TOML: {e}") from None
    except RecursionError:
        raise ConfigError(f"{path}: bad TOML: nested too deeply to be a table config") from None
    return parse_config(data, path)
