"""Advice (API.md §1.10, RULINGS.md "Advice"): which of the choices the texts give a side wins most
often, exactly, on the encounter's own chain, and what deciding anew in every state is worth.

No system is known here. A system hands ``advise`` an ``Advisor`` (its hook) and the loaded body; the
platform checks ``advise``, enumerates every fixed policy (every combination of the asked choices'
values), prices all of them together against the encounter limit before solving any, solves each
with the system's own encounter odds, ranks them, and adds the system's adaptive optimum.

The hook's contract (``Advisor``), what a system supplies and nothing more:

- ``sides(body) -> [name]``: the sides (or parties, chains) the body has, as ``advise.side`` names
  them; the first is the side advised when ``advise.side`` is not given.
- ``choices(body, side) -> {choice: [value, ...]}``: every choice the side has (the texts' own,
  RULINGS.md "Advice"), in the order the answer lists them, each with every value a fixed policy may
  give it, as JSON values of the body's own policy field, the documented default among them. A
  choice made per member is one value per combination of its members' values: ``per_member`` builds
  them (``{"Alrik": 1, "Bea": 0}``); ``combinations`` one per step (a list).
- ``default(body, side) -> {choice: value}``: the documented default of every choice of the side.
- ``apply(body, side, policy) -> body``: a new body in which the side plays by ``policy`` (a subset of
  its choices); every other member as given. Never changes ``body``.
- ``odds(body) -> Odds``: the system's encounter odds view, exactly what ``/encounter/odds`` answers
  for that body; it prices itself with ``limits.encounter_precision`` before solving (so ``pricing()``
  learns its work) and decides exact or float64 by the body's ``exact``.
- ``adaptive(body, side, asked) -> Adaptive | None`` (optional): the side's best play when it may decide
  every asked choice anew in every state (``asked``: choice -> the values it may take), the other
  choices as the body gives them; priced like ``odds`` (``encounter_precision`` on its own state
  bound, with ``cost`` for its work per state) before solving; ``rules`` say in words when to do what
  (catalog messages made with ``words.messages.advised``, not ``say``, which marks refusals); None
  where the body has none (a cut ``max_rounds``). Where it gains
  less than 0.1 percentage points over the best fixed option, the platform adds a rule saying so.
- ``wins(outcome, side)`` and ``loses(outcome, side)``: which outcomes of the odds the side wins or
  loses (default: ``wins:<side>`` wins, any other ``wins:`` or ``both_out`` loses); ``rounds``: the
  expected value that counts rounds (default ``rounds``); ``side_name(body, side)``: how the chat
  line names the side (default: as ``advise.side`` does); ``headline(**words)``: the chat line's first
  sentence, naming the side, the best policy and its chance (``to_win`` for a fight, ``to_succeed``
  for a test, a system's own where its chance measures something else); ``describe(policy)``: the policy in the
  system's words for the chat line (catalog messages, joined with commas), so a German line reads
  „einen einmaligen Rettungswürfel einsetzen, nie aufgeben“, not the API's fields (default: the
  fields as the body names them).

A system's advice view is then ``platform_advice.answer(ADVISOR, body, lang)`` (routes.py imports this
module as ``platform_advice``: its own ``advice`` module, where the adaptive solver lives, keeps its
name, tests/systems/test_one_shape.py), named ``<operation>_advice`` and declared on its rolling
operation as ``Operation.rolling(..., advice=view)`` (``POST <path>/advice``). Its docstring quotes the
ruling; /play needs its words in service/web/labels.js (tests/test_operation_completeness.py).

Ranking (RULINGS.md "Advice"): by the chance to win, ties by the chance not to lose, then by fewer
expected rounds; options within 0.1 percentage points of the best are "gleich gut" (``equal``).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Self

from babel.numbers import format_percent

from service.platform.http.limits import (
    SWEPT,
    Priced,
    encounter_share,
    is_pricing,
    limit_member,
    pricing,
)
from service.platform.maths.odds import Odds, Probability, Solver, probability_json, solver_json
from service.platform.values.errors import EncounterTooLarge, InputError
from service.platform.words.messages import Choices, Message, Number, advised, localized, say

Body = Mapping[str, Any]
Policy = Mapping[str, Any]

MAX_OPTIONS = 64  # fixed policies one answer compares; more is a 422 naming advise.choices
EQUAL_WITHIN = Fraction(1, 1000)  # "gleich gut": less than 0.1 percentage points apart
NO_GAIN = advised("Deciding anew in every state wins no more than the best fixed option: play that one.")


def loses_less(not_lose: Probability, best: Probability) -> Message:
    """The rule where deciding anew wins no more but loses less (ties broken by the chance not to lose)."""
    return advised("Deciding anew in every state wins no more than the best fixed option, but loses less: "
                   "%(not_lose)s not to lose instead of %(best)s.", not_lose=Percent(not_lose), best=Percent(best))


@dataclass(frozen=True)
class Adaptive:
    """The side's best play when it decides anew in every state (a system's adaptive solver)."""

    win: Probability
    rules: tuple[Message, ...]  # what to do when, in words (catalog messages)
    states: int
    max_error: float = 0.0  # 0 when exact
    not_lose: Probability | None = None  # where the solver breaks ties by it (None: it does not say)

    def not_lose_over(self, option: Option) -> Probability | None:
        """Its chance not to lose where it loses less than ``option`` does (None: not, or not said)."""
        if self.not_lose is None or self.not_lose - option.not_lose < EQUAL_WITHIN:
            return None
        return self.not_lose


def won_by_name(outcome: str, side: str) -> bool:
    return outcome == f"wins:{side}"


def lost_by_name(outcome: str, side: str) -> bool:
    return (outcome.startswith("wins:") and outcome != f"wins:{side}") or outcome == "both_out"


def to_win(**words: object) -> Message:
    """The chat line's first sentence for a fight: the chance to win."""
    return advised("Advice for %(side)s: best %(policy)s, %(win)s to win.", **words)


def to_succeed(**words: object) -> Message:
    """The chat line's first sentence for a test: the chance of success."""
    return advised("Advice for %(side)s: best %(policy)s, %(win)s chance of success.", **words)


@dataclass(frozen=True)
class Advisor:
    """A system's advice hook (the module docstring gives each member's contract)."""

    sides: Callable[[Body], Sequence[str]]
    choices: Callable[[Body, str], Mapping[str, Sequence[Any]]]
    default: Callable[[Body, str], Policy]
    apply: Callable[[Body, str, Policy], dict]
    odds: Callable[[Body], Odds]
    adaptive: Callable[[Body, str, Mapping[str, Sequence[Any]]], Adaptive | None] | None = None
    wins: Callable[[str, str], bool] = won_by_name
    loses: Callable[[str, str], bool] = lost_by_name
    rounds: str = "rounds"
    side_name: Callable[[Body, str], str] = lambda _body, side: side  # how the chat line names a side
    headline: Callable[..., Message] = to_win  # the chat line's first sentence
    describe: Callable[[Policy], Sequence[Message]] | None = None  # the policy in words for the chat line


def combinations(values: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """Every way to pick one of each ``values``: the values of a choice made per step (a list)."""
    return list(itertools.product(*values))


def per_member(members: Sequence[str], values: Sequence[Any]) -> list[dict[str, Any]]:
    """Every assignment of ``values`` to ``members``: the values of a choice made per member."""
    return [dict(zip(members, chosen, strict=True)) for chosen in itertools.product(values, repeat=len(members))]


@dataclass(frozen=True)
class Option:
    """One fixed policy and what it gives the side."""

    policy: Policy
    odds: Odds
    win: Probability
    not_lose: Probability
    rounds: Probability | None
    vs_best: Probability = 0  # win - best's win (0 or below)

    @property
    def equal_to_best(self) -> bool:
        return -self.vs_best < EQUAL_WITHIN

    def rank(self) -> tuple:
        return (-self.win, -self.not_lose, self.rounds if self.rounds is not None else 0)


@dataclass(frozen=True)
class Advice:
    side: str
    options: tuple[Option, ...]  # best first
    default: Option
    adaptive: Adaptive | None
    solver: Solver

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def gain(self) -> Probability | None:
        return None if self.adaptive is None else self.adaptive.win - self.best.win


# -- the request: which side, which choices ---------------------------------------------------------

def asked_choices(advisor: Advisor, body: Body) -> tuple[str, dict[str, Sequence[Any]]]:
    """The side advised and its asked choices with their values; InputError (422) for an unknown side
    or choice, a choice asked twice, or more than ``MAX_OPTIONS`` options."""
    advise = body.get("advise") or {}
    sides = list(advisor.sides(body))
    side = advise.get("side")
    if side is None:
        side = sides[0]
    elif side not in sides:
        raise InputError("advise.side", Choices(sides, side))
    available = advisor.choices(body, side)
    names = advise.get("choices")
    if names is None:
        names = list(available)
    asked: dict[str, Sequence[Any]] = {}
    for index, name in enumerate(names):
        if name not in available:
            raise InputError(f"advise.choices.{index}", Choices(list(available), name))
        if name in asked:
            raise InputError(f"advise.choices.{index}", say("is asked twice"))
        asked[name] = available[name]
    count = 1
    for values in asked.values():
        count *= len(values)
    if count > MAX_OPTIONS:
        raise InputError("advise.choices", say("give %(options)s fixed options, more than %(limit)s: ask for "
                                               "fewer choices", options=Number(count), limit=MAX_OPTIONS))
    return side, asked


def policies(asked: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the asked choices' values, in the order of the choices and their values."""
    return [dict(zip(asked, values, strict=True)) for values in itertools.product(*asked.values())]


# -- limits: priced together, refused before solving ------------------------------------------------

def _work(solve: Callable[[], object]) -> int:
    """What ``solve`` would cost, learnt from its own pricing (``encounter_precision``) without solving;
    a solve that prices nothing (one roll) costs no encounter work. A solve over the limit on its own
    raises its own ``encounter-too-large`` here."""
    with pricing():
        try:
            solve()
        except Priced as priced:
            return priced.work
    return 0


def check_limits(advisor: Advisor, body: Body, bodies: Sequence[Body], side: str,
                 asked: Mapping[str, Sequence[Any]]) -> None:
    """The encounter limit counted over every option (``bodies``) and then the adaptive solve of
    ``body``, before any is solved. Inside the batch's own ``pricing()``, the total is what it learns
    (``Priced``)."""
    work = 0
    for option_body in bodies:
        work += _work(lambda option_body=option_body: advisor.odds(option_body))  # type: ignore[misc]
        _refuse_over_share(work, len(bodies))
    if advisor.adaptive is not None:
        adaptive = advisor.adaptive
        work += _work(lambda: adaptive(body, side, asked))
        _refuse_over_share(work, len(bodies))
    if is_pricing():
        raise Priced(work)


def _refuse_over_share(work: int, options: int) -> None:
    share = encounter_share(SWEPT)
    if work > share:
        raise EncounterTooLarge("advise", say("the %(options)s options of this advice have up to %(states)s states "
                                              "in all, more than the limit %(limit)s (WURFWERK_MAX_ENCOUNTER_STATES)",
                                              options=Number(options), states=Number(work), limit=Number(share)),
                                states=work, limit=limit_member("encounter_states", share))


# -- solving and ranking ----------------------------------------------------------------------------

def advise(advisor: Advisor, body: Body) -> Advice:
    """Every fixed option of the asked choices, ranked, with the default and the adaptive optimum."""
    side, asked = asked_choices(advisor, body)
    plain = {name: value for name, value in body.items() if name != "advise"}
    default_policy = {name: value for name, value in advisor.default(plain, side).items() if name in asked}
    fixed = policies(asked)
    if default_policy not in fixed:
        raise AssertionError(f"{side}: the default {default_policy} is not among the choices' values")
    bodies = [advisor.apply(plain, side, policy) for policy in fixed]
    check_limits(advisor, plain, bodies, side, asked)
    options = [_option(advisor, side, policy, advisor.odds(option_body))
               for policy, option_body in zip(fixed, bodies, strict=True)]
    ranked = sorted(options, key=Option.rank)
    best = ranked[0].win
    ranked = [dataclasses.replace(option, vs_best=option.win - best) for option in ranked]
    default = next(option for option in ranked if option.policy == default_policy)
    adaptive = advisor.adaptive(plain, side, asked) if advisor.adaptive is not None else None
    if adaptive is not None and adaptive.win - ranked[0].win < EQUAL_WITHIN:
        safer = adaptive.not_lose_over(ranked[0])
        last = NO_GAIN if safer is None else loses_less(safer, ranked[0].not_lose)
        adaptive = dataclasses.replace(adaptive, rules=(*adaptive.rules, last))
    return Advice(side, tuple(ranked), default, adaptive, _solver(ranked, adaptive))


def _option(advisor: Advisor, side: str, policy: Policy, odds: Odds) -> Option:
    outcomes = odds.outcomes
    win = _total(p for name, p in outcomes.items() if advisor.wins(name, side))
    lose = _total(p for name, p in outcomes.items() if advisor.loses(name, side))
    return Option(dict(policy), odds, win, 1 - lose, odds.expected.get(advisor.rounds))


def _total(probabilities: Iterable[Probability]) -> Probability:
    total: Probability = Fraction(0)
    for probability in probabilities:
        total += probability
    return total


def _solver(options: Sequence[Option], adaptive: Adaptive | None) -> Solver:
    solvers = [option.odds.solver or Solver(0) for option in options]
    states = sum(solver.states for solver in solvers) + (adaptive.states if adaptive else 0)
    errors = [solver.max_error for solver in solvers] + ([adaptive.max_error] if adaptive else [])
    exact = all(solver.exact for solver in solvers) and all(
        isinstance(p, Fraction) for p in ((adaptive.win,) if adaptive else ()))
    return Solver(states, "exact" if exact else "float64", 0.0 if exact else max(errors))


# -- the answer's JSON and words --------------------------------------------------------------------

def advice_json(advice: Advice, lang: str) -> dict[str, Any]:
    """The contract's ``advice`` member (API.md §1.10)."""
    def option_json(option: Option) -> dict[str, Any]:
        return {"policy": dict(option.policy), "win": probability_json(option.win),
                "not_lose": probability_json(option.not_lose),
                "expected_rounds": None if option.rounds is None else float(option.rounds),
                "outcomes": {name: probability_json(p) for name, p in option.odds.outcomes.items()},
                "expected": {name: float(value) for name, value in option.odds.expected.items()},
                "vs_best": {**probability_json(option.vs_best), "equal": option.equal_to_best}}
    adaptive = None
    if advice.adaptive is not None:
        gain = advice.gain
        assert gain is not None
        adaptive = {"win": probability_json(advice.adaptive.win), "gain_over_best_fixed": probability_json(gain),
                    "not_lose": None if advice.adaptive.not_lose is None
                    else probability_json(advice.adaptive.not_lose),
                    "rules": [localized(rule, lang) for rule in advice.adaptive.rules]}
    return {
        "side": advice.side,
        "options": [option_json(option) for option in advice.options],
        "best": {"policy": dict(advice.best.policy), "win": probability_json(advice.best.win)},
        "default": {"policy": dict(advice.default.policy), "win": probability_json(advice.default.win),
                    "vs_best": {**probability_json(advice.default.vs_best), "equal": advice.default.equal_to_best}},
        "adaptive": adaptive,
        "solver": solver_json(advice.solver),
    }


class Percent(Number):
    """A chance as the message's language writes a percentage with one decimal ("63.2%", „63,2 %“, the
    German space a no-break one, so that a narrow chat never wraps the number from its sign)."""

    def __new__(cls, value: Probability) -> Self:
        percent = str.__new__(cls, format_percent(float(value), "#,##0.0%", locale="en"))
        percent.value = float(value)
        return percent

    def say(self, lang: str, glossary: Mapping[str, str] | None = None) -> str:
        return format_percent(self.value, "#,##0.0\u00a0%" if lang == "de" else "#,##0.0%", locale=lang)


def api_policy_words(policy: Policy) -> str:
    """A policy as the API names it (``one_shot_rescue = 1``): the chat line quotes the body's own fields."""
    def value(given: object) -> str:
        if isinstance(given, Mapping):
            return "{" + ", ".join(f"{key}: {value(item)}" for key, item in given.items()) + "}"
        if isinstance(given, (list, tuple)):
            return "[" + ", ".join(value(item) for item in given) + "]"
        return "null" if given is None else str(given).lower() if isinstance(given, bool) else str(given)
    return ", ".join(f"{name} = {value(given)}" for name, given in policy.items()) or "–"


def answer(advisor: Advisor, body: Body, lang: str) -> tuple[dict[str, Any], str]:
    """An advice view's answer: the ``advice`` member and its chat line."""
    advice = advise(advisor, body)
    return advice_json(advice, lang), summary(advice, advisor.side_name(body, advice.side), lang,
                                              headline=advisor.headline, describe=advisor.describe)


def summary(advice: Advice, side_name: str, lang: str, *, headline: Callable[..., Message] = to_win,
            describe: Callable[[Policy], Sequence[Message]] | None = None) -> str:
    """One chat line: the best option, whether the default is as good, and the adaptive optimum."""
    def policy_words(policy: Policy) -> object:
        return list(describe(policy)) if describe is not None else api_policy_words(policy)

    best = advice.best
    words = {"side": side_name, "policy": policy_words(best.policy), "win": Percent(best.win)}
    parts = [headline(**words)]
    if advice.default is not best:
        if advice.default.equal_to_best:
            parts.append(advised("The default (%(policy)s) is as good.", policy=policy_words(advice.default.policy)))
        else:
            parts.append(advised("The default (%(policy)s): %(win)s.", policy=policy_words(advice.default.policy),
                             win=Percent(advice.default.win)))
    if advice.adaptive is not None:
        gain = advice.gain
        assert gain is not None
        safer = advice.adaptive.not_lose_over(best)
        if gain < EQUAL_WITHIN and safer is not None:
            parts.append(advised("Deciding anew in every state wins no more but loses less: %(not_lose)s not to "
                                 "lose.", not_lose=Percent(safer)))
        elif gain < EQUAL_WITHIN:
            parts.append(advised("Deciding anew in every state gains nothing worth saying."))
        else:
            parts.append(advised("Deciding anew in every state: %(win)s.", win=Percent(advice.adaptive.win)))
    return " ".join(localized(part, lang) for part in parts)
