"""The approved game math: the games, shoe sizes, house rules and pay tables the house approved
(its par sheets), and how a table's logged rules are judged against them (pure logic; reading
the file is :func:`load`).

The shipped file (``tablectl/analytics/approved.toml``) holds the shipped table configs' rules;
a dataset may keep its own as ``_manifests/approved.toml`` (:func:`default_path`), and
``tablectl floor --approved FILE`` names another. A logged rule set is *approved* when an
approved set of its game has its shoe size and the same settlement rules (house rules and pay
tables as the settlement reads them, defaults filled in); otherwise its differences from the
closest approved set of the game are named. Every round is judged against the math of the
approved set its rules match, else of the closest one: a table paying more than the house
approved loses against the approved math. A rule value the game math does not model
(:data:`UNMODELLED`) leaves the round *not judged*.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import asdict, dataclass, is_dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

from tablectl.analytics.dataset.store import MANIFESTS
from tablectl.files import MAX_CONFIG_BYTES, read_regular

APPROVED = "approved.toml"  # in a dataset's MANIFESTS: the approved math kept with the dataset
BANKS = ("house", "player")
SET_KEYS = frozenset({"name", "game", "bank", "decks", "house_rules", "pay_tables"})  # of one [[approved]] set

#: the house rule limiting payouts to the bank's stake: the math assumes the bank covers every
#: wager, so under this rule a round is judged only where the bank's stake covers the most the
#: bank could pay on the round's wagers (``tablectl.rules.settle.max_bank_pay``): the limit cannot
#: change such a round's settlement, whatever the cards (``losses_extend_cover`` only adds cover).
#: The rounds dataset's ``cover_binds`` says which rounds the limit could change; those are not judged.
STAKE_LIMIT = "limit_to_banker_stake"
STAKE_LIMIT_BINDS = "stake limit could bind"  # how the "not judged" finding of such rounds begins

#: settlement rules the game math (``tablectl.gamemath``) models at one value only, by game: the
#: rule's ``(modelled value, why another is not)``. The math has the DP go to war on every tie and
#: side bets settled on the cards whatever the player does.
UNMODELLED: dict[str, dict[str, tuple[Any, str]]] = {
    "one-card-poker": {
        "dp_declines_war": ("push", "the math has the DP go to war on every tie"),
    },
    "three-card-poker": {
        "fold_forfeits_six_card_bonus": (False, "the math settles the 6 Card Bonus whatever the player does"),
    },
    "texas-holdem-bonus": {
        "fold_forfeits_bonus": (False, "the math settles the Bonus on the cards whatever the player does"),
    },
}


def unmodelled(game: str, logged: dict[str, Any]) -> list[str]:
    """The rules of ``logged`` (flat settlement rules, :func:`settlement`) the game math does not
    model, each as "key = value (why)"."""
    return [f"{k} = {logged[k]!r} ({why})" for k, (v, why) in UNMODELLED.get(game, {}).items()
            if k in logged and logged[k] != v]


class ApprovedError(Exception):
    """An approved-math file that cannot be used (one line, naming the file)."""


@dataclass(frozen=True)
class ApprovedSet:
    """One par sheet: a game at some shoe sizes under one set of house rules and pay tables."""

    name: str
    game: str
    bank: str  # "house" or "player"
    decks: tuple[int, ...]
    rules: dict[str, Any]  # {"house_rules": ..., "pay_tables": ...} as in a table config


@dataclass(frozen=True)
class Approved:
    """The approved sets of a file, and where they came from."""

    source: str
    sets: tuple[ApprovedSet, ...]

    def digest(self) -> str:
        """A short id of the approved sets (the game math cached with a dataset is keyed by it)."""
        data = [asdict(s) for s in self.sets]
        return hashlib.blake2b(orjson.dumps(data, option=orjson.OPT_SORT_KEYS), digest_size=6).hexdigest()

    def of_game(self, game: str) -> list[ApprovedSet]:
        return [s for s in self.sets if s.game == game]

    def bank(self, game: str) -> str:
        """Who banks ``game``: "player" when an approved set says so, else "house"."""
        return next((s.bank for s in self.of_game(game)), "house")


def shipped_path() -> Path:
    """The approved math shipped with tablectl."""
    return Path(str(resources.files("tablectl.analytics") / APPROVED))


def default_path(root: Path) -> Path:
    """The dataset's own approved math (``_manifests/approved.toml``) if it keeps one, else the
    shipped. Whatever is there is the dataset's (a FIFO or a broken link too: :func:`load` then
    refuses it, where the shipped math in its place would judge the tables unsaid)."""
    kept = root / MANIFESTS / APPROVED
    return kept if kept.exists() or kept.is_symlink() else shipped_path()


def load(path: Path) -> Approved:
    """Read an approved-math file; :class:`ApprovedError` (one line) if it is not one."""
    try:
        data = tomllib.loads(read_regular(path, "approved math", MAX_CONFIG_BYTES).decode("utf-8"))
    except OSError as e:
        raise ApprovedError(f"{path}: cannot read the approved math: {e.strerror or e}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ApprovedError(f"{path}: not TOML ({e})") from None
    return parse(data, str(path))


def parse(data: dict[str, Any], source: str) -> Approved:
    """The approved sets of ``data`` (a parsed file), each checked against the game's rules."""
    from tablectl.review.replay import game_rules

    unknown = sorted(set(data) - {"approved"})
    if unknown:
        raise ApprovedError(f"{source}: unknown key {unknown[0]!r} (the file holds [[approved]] sets)")
    entries = data.get("approved")
    if not isinstance(entries, list) or not entries:
        raise ApprovedError(f"{source}: no [[approved]] sets")
    sets = []
    for i, e in enumerate(entries):
        where = f"{source}: approved set {i + 1}"
        if not isinstance(e, dict) or not isinstance(e.get("game"), str):
            raise ApprovedError(f"{where}: no game")
        name = str(e.get("name", e["game"]))
        unknown = sorted(set(e) - SET_KEYS)
        if unknown:
            raise ApprovedError(f"{where} ({name}): unknown key {unknown[0]!r} (expected one of {', '.join(sorted(SET_KEYS))})")
        bank = e.get("bank", "house")
        decks = e.get("decks", [])
        if bank not in BANKS:
            raise ApprovedError(f"{where} ({name}): bank {bank!r} is not one of {', '.join(BANKS)}")
        if not isinstance(decks, list) or not all(isinstance(d, int) and d > 0 for d in decks):
            raise ApprovedError(f"{where} ({name}): decks must be a list of shoe sizes")
        rules = {"house_rules": dict(e.get("house_rules") or {}), "pay_tables": dict(e.get("pay_tables") or {})}
        try:
            game_rules(e["game"], rules, source)
        except ValueError as err:
            raise ApprovedError(f"{where} ({name}): {err}") from None
        sets.append(ApprovedSet(name, e["game"], bank, tuple(decks), rules))
    return Approved(source, tuple(sets))


def settlement(game: str, rules: dict[str, Any] | None) -> dict[str, Any]:
    """The settlement rules of ``rules`` (None: the game's defaults) as flat ``name -> value``
    (``tie_wager.any_tie``), defaults filled in; ValueError for rules the game refuses."""
    from tablectl.review.replay import game_rules

    out: dict[str, Any] = {}
    _flatten(asdict(game_rules(game, rules, "approved").settlement), "", out)
    return out


def _flatten(value: Any, prefix: str, out: dict[str, Any]) -> None:
    if is_dataclass(value) and not isinstance(value, type):
        value = asdict(value)
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(v, f"{prefix}{k}.", out)
    else:
        out[prefix[:-1]] = value


@dataclass(frozen=True)
class Verdict:
    """How one logged rule set (game, decks, rules) stands against the approved math."""

    judged_by: ApprovedSet | None  # the approved set whose math judges its rounds (None: not judged)
    approved: bool  # the logged rules are an approved set's
    differences: tuple[str, ...]  # "tie_wager.any_tie 40 (approved 4)", "decks 8 (approved 6)"
    not_judged: str  # why its rounds are not judged ("" when they are)
    stake_limited: bool = False  # payouts limited to the bank's stake: rounds the limit could change are not judged


def verdict(approved: Approved, game: str, decks: int | None, rules: dict[str, Any] | None) -> Verdict:
    """The approved set that judges rounds logged under ``rules``, and how they differ from it."""
    candidates = approved.of_game(game)
    if not candidates:
        return Verdict(None, False, (f"game {game} has no approved math",), f"no approved math for {game}")
    try:
        logged = settlement(game, rules)
    except ValueError as e:
        return Verdict(None, False, (f"house rules not usable: {e}",), f"house rules not usable: {e}")
    best: tuple[int, ApprovedSet, list[str]] | None = None
    for s in candidates:
        diffs = _differences(logged, settlement(game, s.rules))
        if s.decks and decks not in s.decks:
            diffs.insert(0, f"decks {decks} (approved {'/'.join(map(str, s.decks))})")
        if best is None or len(diffs) < best[0]:
            best = (len(diffs), s, diffs)
    assert best is not None
    _, judged_by, diffs = best
    missing = unmodelled(game, logged)
    reason = f"house rule {'; '.join(missing)}: not modelled by the game math" if missing else ""
    return Verdict(None if reason else judged_by, not diffs, tuple(diffs), reason, bool(logged.get(STAKE_LIMIT)))


def _stake_limit_finding(common: dict[str, Any], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The "not judged" finding of a rules id limiting payouts to the bank's stake, when some of
    its rounds' stakes fall short of what the bank could pay (span column ``cover_may_bind``)."""
    binds = sum(int(r.get("cover_may_bind") or 0) for r in rows)
    if not binds:
        return []
    judged = common["rounds"] - binds
    return [{**common, "rounds": binds, "finding": "not judged",
             "detail": f"{STAKE_LIMIT_BINDS}: {binds:,} rounds (the bank's stake below the most it could pay; "
                       f"the {judged:,} whose stake covers it are judged)"}]


def _differences(logged: dict[str, Any], approved: dict[str, Any]) -> list[str]:
    return [f"{k} {logged.get(k)!r} (approved {approved.get(k)!r})"
            for k in sorted(logged.keys() | approved.keys()) if logged.get(k) != approved.get(k)]


def _changes(before: dict[str, Any], now: dict[str, Any]) -> list[str]:
    found = [f"{k} {before.get(k)!r} -> {now.get(k)!r}" for k in sorted(before.keys() | now.keys())
             if before.get(k) != now.get(k)]
    return found or ["the same settlement rules (another rules id)"]


def rules_findings(approved: Approved, registry: dict[str, dict[str, Any]], spans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a floor analyst must know of each table's rules, from ``spans`` (per table, day and
    rules id: game, decks, rounds, first and last seq): rules no approved set has ("not approved",
    naming the rules that differ), rules changed within a day ("changed"), rounds whose rules the
    game math does not model ("not judged"), and rounds whose bank's stake a payout limit could
    bind (``cover_may_bind`` in the spans). One dict per finding: table_id, date (None: every
    day), finding, rules_id, detail, rounds, first_round, last_round (round ids), seq_from, seq_to
    (log lines), round_span ("first..last (rounds)")."""
    out: list[dict[str, Any]] = []
    by_rules: dict[tuple[str, str], list[dict[str, Any]]] = {}
    by_day: dict[tuple[str, Any], list[dict[str, Any]]] = {}
    for s in spans:
        by_rules.setdefault((s["table_id"], s["rules_id"]), []).append(s)
        by_day.setdefault((s["table_id"], s["date"]), []).append(s)
    for (table, rid), rows in sorted(by_rules.items()):
        first = rows[0]
        v = verdict(approved, first["game"], first["decks"], (registry.get(rid) or {}).get("rules"))
        first_span = min(rows, key=lambda r: r["seq_from"])
        last_span = max(rows, key=lambda r: r["seq_to"])
        common = {"table_id": table, "date": None, "rules_id": rid, "rounds": sum(r["rounds"] for r in rows),
                  "first_round": first_span["first_round"], "last_round": last_span["last_round"],
                  "seq_from": first_span["seq_from"], "seq_to": last_span["seq_to"]}
        if not v.approved:
            out.append({**common, "finding": "not approved", "detail": "; ".join(v.differences)})
        if v.not_judged:
            out.append({**common, "finding": "not judged", "detail": v.not_judged})
        elif v.stake_limited:
            out.extend(_stake_limit_finding(common, rows))
    for (table, date), rows in sorted(by_day.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        if len({r["rules_id"] for r in rows}) > 1:
            before: dict[str, Any] | None = None
            for r in sorted(rows, key=lambda r: r["seq_from"]):
                try:
                    now = settlement(r["game"], (registry.get(r["rules_id"]) or {}).get("rules"))
                except ValueError as e:
                    now = {"rules": f"not usable: {e}"}
                detail = (f"in force first of {len(rows)} rule sets on {date}" if before is None
                          else "changed to " + "; ".join(_changes(before, now)))
                before = now
                out.append({"table_id": table, "date": date, "finding": "changed", "rules_id": r["rules_id"],
                            "detail": detail, "rounds": r["rounds"],
                            "first_round": r["first_round"], "last_round": r["last_round"],
                            "seq_from": r["seq_from"], "seq_to": r["seq_to"]})
    for f in out:
        f["round_span"] = f"{f['first_round']}..{f['last_round']} ({f['rounds']:,})"
    return out
