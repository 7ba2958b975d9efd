"""Table configuration: one TOML file per table, validated into typed objects (pydantic v2).

::

    table = "ocp-1"
    game = "one-card-poker"
    decks = 6
    penetration_cap = 90          # percent of the shoe, 0 < cap <= 100
    seats = 7
    min_bet = 5                   # dollars (cents allowed: 5.50)
    max_bet = 500

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

``load_config(path)`` returns a ``TableConfig`` or raises ``ConfigError``: one line naming the
file, the key and the reason.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tablectl.games import GAMES, GameDef
from tablectl.rules.configure import RulesConfigError
from tablectl.rules.houserules import RULES_BY_GAME, rules_from_dict

CARD_DRIVERS = ("shoe", "csm", "shuffler")
TABLE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_SERIAL_SCHEMES = ("socket", "rfc2217", "loop", "spy")


class ConfigError(ValueError):
    """A table configuration that cannot be used; the message is one line: file, key, reason."""


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
        return text
    if text.startswith("/") or re.fullmatch(r"COM\d+", text, re.IGNORECASE):
        return text
    raise ValueError(f"{text!r}: expected a serial device path (/dev/ttyUSB0), socket://host:port, rfc2217://host:port, usb:VID:PID[:SERIAL] or usbserial:VID:PID[:SERIAL]")


def _cents(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{value!r} is not an amount in dollars")
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"{value!r} is not an amount in dollars") from None
    cents = amount * 100
    if cents != cents.to_integral_value() or cents <= 0:
        raise ValueError(f"{value!r} is not a positive amount in whole cents")
    return int(cents)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)


class DeviceConfig(_Strict):
    """One device of the table: which driver talks to it and where it is."""

    driver: str
    address: str

    @field_validator("address")
    @classmethod
    def _address(cls, value: str) -> str:
        return check_address(value)

    @field_validator("driver")
    @classmethod
    def _driver(cls, value: str) -> str:
        from tablectl.drivers.registry import driver_names

        known = driver_names()
        if value not in known:
            raise ValueError(f"unknown driver {value!r} (known: {', '.join(known)})")
        return value


class LogConfig(_Strict):
    """Where and how the table's card event log is written."""

    dir: Path
    signing_key: Path | None = None
    rotate: Literal["shoe", "day", "never"] = "shoe"
    checkpoint_every: int = Field(1000, ge=0)
    fsync: bool = True


class TableConfig(_Strict):
    """A validated table configuration. Amounts are cents; ``penetration_cap`` is a fraction."""

    table: str
    game: str
    decks: int
    penetration_cap: float = 0.9
    seats: int
    min_bet: int
    max_bet: int
    devices: dict[str, DeviceConfig]
    house_rules: dict[str, Any] = Field(default_factory=dict)
    pay_tables: dict[str, Any] = Field(default_factory=dict)
    supervisors: dict[str, str] = Field(default_factory=dict)
    log: LogConfig
    source: Path | None = Field(None, exclude=True)

    @field_validator("table")
    @classmethod
    def _table(cls, value: str) -> str:
        if not TABLE_ID.match(value):
            raise ValueError(f"{value!r}: letters, digits, '.', '_', '-' (at most 64)")
        return value

    @field_validator("game")
    @classmethod
    def _game(cls, value: str) -> str:
        if value not in GAMES:
            raise ValueError(f"unknown game {value!r} (expected one of {', '.join(GAMES)})")
        return value

    @field_validator("decks")
    @classmethod
    def _decks(cls, value: int) -> int:
        if value < 1:
            raise ValueError(f"must be at least 1, not {value}")
        return value

    @field_validator("penetration_cap", mode="before")
    @classmethod
    def _cap(cls, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{value!r}: expected a percentage, 0 < cap <= 100")
        if not 0 < value <= 100:
            raise ValueError(f"{value}%: must be above 0 and at most 100")
        return float(value) / 100

    @field_validator("supervisors")
    @classmethod
    def _supervisors(cls, value: dict[str, str]) -> dict[str, str]:
        from tablectl.supervisor import CredentialFormatError, parse_stored

        for who, stored in value.items():
            try:
                parse_stored(stored)
            except CredentialFormatError as e:
                raise _KeyError(f"supervisors.{who}", str(e)) from None
        return value

    @field_validator("min_bet", "max_bet", mode="before")
    @classmethod
    def _amount(cls, value: Any) -> int:
        return _cents(value)

    @model_validator(mode="after")
    def _consistent(self) -> TableConfig:
        game = GAMES[self.game]
        if self.decks not in game.decks:
            allowed = " or ".join(str(d) for d in game.decks)
            raise _KeyError("decks", f"{game.title} is dealt with {allowed} deck(s), not {self.decks}")
        if not 1 <= self.seats <= game.max_seats:
            raise _KeyError("seats", f"{game.title} has 1 to {game.max_seats} seats, not {self.seats}")
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
        self.procedure_rules  # noqa: B018 - validates the procedure house rules
        self.settlement_rules  # noqa: B018 - validates the settlement house rules and pay tables
        return self

    # --- derived ----------------------------------------------------------------------------

    @property
    def game_def(self) -> GameDef:
        return GAMES[self.game]

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
            section = "pay_tables" if path.split(".")[0] in self.pay_tables else "house_rules"
            raise _KeyError(f"{section}.{path}", reason) from None


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
    try:
        config = TableConfig.model_validate({**data, "source": Path(source)})
    except ValidationError as e:
        err = e.errors()[0]
        ctx_error = err.get("ctx", {}).get("error")
        if isinstance(ctx_error, _KeyError):
            raise ConfigError(f"{source}: {ctx_error.key}: {ctx_error.reason}") from None
        reason = err["msg"].removeprefix("Value error, ")
        if err["type"] == "missing":
            reason = "missing"
        elif err["type"] == "extra_forbidden":
            reason = "unknown key"
        raise ConfigError(f"{source}: {_loc(err['loc'])}: {reason}") from None
    except _KeyError as e:
        raise ConfigError(f"{source}: {e.key}: {e.reason}") from None
    return config


def load_config(path: str | Path) -> TableConfig:
    """Read and validate a table configuration file."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: bad TOML: {e}") from None
    return parse_config(data, path)
