"""The table's lifecycle as a ``transitions`` state machine: states, triggers and guards as data.

Lifecycle changes only (a shuffle done, a round started or ended, a hold, a resolution, a fault);
the per-card work never goes through the machine. ``auto_transitions=False``: no code can jump
to a state around its guards. The model (``TableCore``) provides the guard methods named here.

Holds and faults remember the *base* state they interrupted (idle .. reshuffle due) and return to
it through one guarded transition per base state, so the diagram shows every way back.

The table takes its transitions with :func:`take`, which walks :func:`routes`: the Machine's own
transitions read once per process, tried in the Machine's order with its guards and ``before``
callbacks, without the Machine's per-trigger dispatch (event data, queue, callback resolution,
a dozen debug log calls), which cost more than the rest of a round's lifecycle work.
"""

from __future__ import annotations

from typing import Any

from transitions import Machine, MachineError

OFFLINE = "offline"
IDLE = "idle"  # connected; no shuffled cards to deal from
SHUFFLING = "shuffling"
READY = "ready"
IN_ROUND = "in_round"
SETTLING = "settling"  # the round's cards and decisions are complete: pay, then collect
RESHUFFLE_DUE = "reshuffle_due"
HELD = "held"  # a violation waits for a supervisor
DEVICE_FAULT = "device_fault"

BASE_STATES = (IDLE, SHUFFLING, READY, IN_ROUND, SETTLING, RESHUFFLE_DUE)
STATES = (OFFLINE, *BASE_STATES, HELD, DEVICE_FAULT)


def _base_guard(state: str) -> str:
    return f"base_is_{state}"


TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "connect", "source": OFFLINE, "dest": IDLE},
    {"trigger": "shuffle_started", "source": [IDLE, READY, RESHUFFLE_DUE, SHUFFLING], "dest": SHUFFLING},
    {"trigger": "shuffle_done", "source": [SHUFFLING, IDLE, READY, RESHUFFLE_DUE], "dest": READY, "conditions": "deck_ok"},
    {"trigger": "shuffle_done", "source": [SHUFFLING, IDLE, READY, RESHUFFLE_DUE], "dest": IDLE, "unless": "deck_ok"},
    {"trigger": "shoe_loaded", "source": [IDLE, READY, RESHUFFLE_DUE, SHUFFLING], "dest": READY, "conditions": "deck_ok"},
    {"trigger": "shoe_loaded", "source": [IDLE, READY, RESHUFFLE_DUE, SHUFFLING], "dest": IDLE, "unless": "deck_ok"},
    {"trigger": "shoe_removed", "source": [IDLE, READY, RESHUFFLE_DUE], "dest": IDLE},
    {"trigger": "shoe_resumed", "source": IDLE, "dest": RESHUFFLE_DUE, "conditions": "reshuffle_needed"},
    {"trigger": "shoe_resumed", "source": IDLE, "dest": READY, "unless": "reshuffle_needed"},
    {"trigger": "start_round", "source": READY, "dest": IN_ROUND, "conditions": "round_ok"},
    {"trigger": "round_resumed", "source": [READY, RESHUFFLE_DUE], "dest": IN_ROUND},
    {"trigger": "start_round", "source": RESHUFFLE_DUE, "dest": IN_ROUND, "conditions": ["round_ok", "cards_left"]},
    {"trigger": "round_complete", "source": IN_ROUND, "dest": SETTLING},
    {"trigger": "end_round", "source": SETTLING, "dest": RESHUFFLE_DUE, "conditions": "reshuffle_needed"},
    {"trigger": "end_round", "source": SETTLING, "dest": READY, "unless": "reshuffle_needed"},
    {"trigger": "exhausted", "source": READY, "dest": RESHUFFLE_DUE},
    {"trigger": "hold", "source": list(BASE_STATES), "dest": HELD, "before": "remember_base"},
    {"trigger": "fault", "source": list(BASE_STATES), "dest": DEVICE_FAULT, "before": "remember_base"},
    {"trigger": "fault", "source": HELD, "dest": DEVICE_FAULT},
    {"trigger": "fault_cleared", "source": DEVICE_FAULT, "dest": HELD, "conditions": ["faults_clear", "violations_open"]},
    *(
        {
            "trigger": "fault_cleared",
            "source": DEVICE_FAULT,
            "dest": s,
            "conditions": ["faults_clear", _base_guard(s)],
            "unless": "violations_open",
        }
        for s in BASE_STATES
    ),
    *(
        {"trigger": "resolve", "source": HELD, "dest": s, "conditions": _base_guard(s), "unless": "violations_open"}
        for s in BASE_STATES
    ),
    {"trigger": "stop", "source": [s for s in STATES if s != OFFLINE], "dest": OFFLINE},
]

GUARDS = (
    "deck_ok",
    "round_ok",
    "cards_left",
    "reshuffle_needed",
    "faults_clear",
    "violations_open",
    *(_base_guard(s) for s in BASE_STATES),
)
"""Every guard the model must provide (as a method without arguments)."""


class LifecycleModel:
    """The guards and the base-state memory a model of the table machine needs.

    Subclasses set the flags the guards read; ``remember_base`` runs before a hold or a fault.
    """

    state: str
    base: str = IDLE
    deck_good: bool = True
    round_accepted: bool = True
    has_cards_left: bool = True
    needs_reshuffle: bool = False

    def remember_base(self) -> None:
        self.base = self.state

    def deck_ok(self) -> bool:
        return self.deck_good

    def round_ok(self) -> bool:
        return self.round_accepted

    def cards_left(self) -> bool:
        return self.has_cards_left

    def reshuffle_needed(self) -> bool:
        return self.needs_reshuffle

    def faults_clear(self) -> bool:
        return not self.active_faults()

    def violations_open(self) -> bool:
        return bool(self.open_violations())

    def active_faults(self) -> Any:  # overridden
        return ()

    def open_violations(self) -> Any:  # overridden
        return ()


for _s in BASE_STATES:
    setattr(LifecycleModel, _base_guard(_s), lambda self, s=_s: self.base == s)


#: One way a trigger may go from a state: destination, guards (method name, the value that lets
#: the transition pass), ``before`` callbacks (method names).
Route = tuple[str, tuple[tuple[str, bool], ...], tuple[str, ...]]


def build_machine(model: LifecycleModel, *, initial: str = OFFLINE) -> Machine:
    """The table machine for ``model`` (plain ``Machine``, queued, no auto transitions)."""
    return Machine(
        model=model,
        states=list(STATES),
        transitions=TRANSITIONS,
        initial=initial,
        auto_transitions=False,
        queued=True,
        ignore_invalid_triggers=False,
    )


def routes() -> dict[tuple[str, str], tuple[Route, ...]]:
    """The table machine's transitions by (trigger, source state), each list in the order the
    Machine tries them; read from a Machine built once. Refuses a machine with callbacks that
    :func:`take` would not run (state enter/exit, prepare/after, machine-wide)."""
    machine = build_machine(LifecycleModel())
    wide = (machine.before_state_change, machine.after_state_change, machine.prepare_event, machine.finalize_event,
            machine.on_exception, machine.on_final)
    if any(wide) or any(s.on_enter or s.on_exit or s.final for s in machine.states.values()):
        raise TypeError("the table machine has callbacks that take() does not run")
    out: dict[tuple[str, str], tuple[Route, ...]] = {}
    for trigger, event in machine.events.items():
        for source, transitions in event.transitions.items():
            ways = []
            for t in transitions:
                if t.prepare or t.after or not all(isinstance(c.func, str) for c in t.conditions):
                    raise TypeError(f"{trigger} from {source}: callbacks that take() does not run")
                ways.append((t.dest, tuple((c.func, c.target) for c in t.conditions), tuple(t.before)))
            out[trigger, source] = tuple(ways)
    return out


def take(model: LifecycleModel, trigger: str) -> None:
    """Take ``trigger`` from ``model.state`` as the Machine would: the first of its transitions
    whose guards all pass runs its ``before`` callbacks and sets the state; none passing leaves
    the state as it is; a trigger the state does not have raises ``MachineError``."""
    ways = _ROUTES.get((trigger, model.state))
    if ways is None:
        raise MachineError(f"Can't trigger event {trigger} from state {model.state}!")
    for dest, guards, before in ways:
        for guard, wanted in guards:
            if getattr(model, guard)() != wanted:
                break
        else:
            for callback in before:
                getattr(model, callback)()
            model.state = dest
            return


def mermaid(title: str = "tablectl table") -> str:
    """The machine as a mermaid ``stateDiagram``, drawn by transitions' GraphMachine from the same
    states and transitions the table runs on."""
    from transitions.extensions.diagrams import GraphMachine

    model = LifecycleModel()
    GraphMachine(
        model=model,
        states=list(STATES),
        transitions=TRANSITIONS,
        initial=OFFLINE,
        auto_transitions=False,
        queued=True,
        graph_engine="mermaid",
        show_conditions=True,
        title=title,
    )
    return str(model.get_graph().draw(None))  # type: ignore[attr-defined]


_ROUTES = routes()
