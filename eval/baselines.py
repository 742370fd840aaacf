"""The baseline policies of an evaluation: the oracle (the harness's ceiling), random (its floor)
and the planner (the page engine from the task alone, no model).

    oracle = OraclePolicy(OracleConfig(policy="canonical"))
    turn = await oracle.next_turn(situation)     # situation.gold: a Step or a LiveOracle

The oracle plays what datagen's oracle teacher would write for the step: offline, ``gold`` is
the recorded Step (its positives and operation); live, ``gold`` is a ``LiveOracle`` that asks
the task's scripted MiniWoB++ policy (it acts from the utterance and the live DOM, never from the
task's hidden state) for its next act, resolves the act's element to its backend node id and
turns it into a Step on the captured page. The teacher's calls (queries, then the action) are
then handed out one turn at a time; where its queries missed the target, the action goes to the
target the oracle knows, not to the teacher's guess at the last query's top result. An act the engine cannot express (its element has no ref)
ends the step with ``done`` and the reason, so the harness counts it as the oracle's failure; so
does an action the executor refused (the scripted policy is not asked for its next act then).

The random policy acts at once on a uniformly drawn element: click, type a word of the task into
a text field, or select a random option -- the floor any policy must clear.

The planner is the page engine without a model: each step it asks ``query_elements`` what
``query_for_step`` plans from the task alone (the clause the history has not done, its operation
and value) and acts on the top result -- types the value into it when it is a text field,
selects the value when it is a ``<select>``, else clicks it. What a trained model adds is what it
finishes beyond this.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from datagen.miniwob.policies import Act, PolicyError, policy_for
from datagen.records import Operation, Step
from datagen.teachers import OracleConfig, OracleTeacher, action_call, step_rng
from pipeline.agent.observe import planned_search
from pipeline.agent.policy import Situation, Turn, calls_before, turn_from_calls
from pipeline.distill.attributes import is_text_field
from pipeline.distill.model import DistilledPage
from pipeline.html.mind2web_format import drag_value
from pipeline.live.actions import LiveActions
from pipeline.live.miniwob import Episode
from pipeline.tools import ToolCall, make_call, spec


@dataclass
class LiveOracle:
    """The scripted policy of one live MiniWoB++ episode, stepped act by act."""

    page: Any  # async Playwright page
    episode: Episode
    actions: LiveActions
    acts: Any = None  # the policy's async generator, started on first use
    plan: list[ToolCall] = field(default_factory=list)  # the calls of the current step
    finished: str = ""  # why the scripted policy has nothing more to do

    async def next_step(self, task: str, history: list[str], page: DistilledPage,
                        seed: int) -> Step | None:
        """The next act as a Step on ``page`` (None: the policy ended or failed)."""
        if self.acts is None:
            self.acts = policy_for(self.episode.task)(self.page, self.episode)
        try:
            act: Act = await anext(self.acts)
        except StopAsyncIteration:
            self.finished = "the scripted policy has no more acts"
            return None
        except PolicyError as exc:
            self.finished = f"scripted policy: {exc}"
            return None
        backend = await self.actions.backend_id_of(act.target)
        if backend is None:
            self.finished = f"the act's element is not on the page ({act.target[:80]})"
            return None
        value = act.value
        if act.drop:
            drop = await self.actions.backend_id_of(act.drop)
            if drop is None:
                self.finished = f"the act's drop target is not on the page ({act.drop[:80]})"
                return None
            value = drag_value(drop)
        uid = f"live-{self.episode.task}-s{seed}-a{len(history)}"
        return Step(step_id=uid, task=task, history=list(history), positives=[backend],
                    operation=Operation(act.op, value, act.original_op), source="miniwob",
                    annotation_id=uid, action_uid=uid, step_index=len(history),
                    website=self.episode.task, page=page.state)

    async def close(self) -> None:
        if self.acts is not None:
            await self.acts.aclose()


class OraclePolicy:
    """The oracle teacher's calls for the step, one turn at a time (see module doc)."""

    name = "oracle"

    def __init__(self, config: OracleConfig | None = None, seed: int = 0) -> None:
        self.teacher = OracleTeacher(config or OracleConfig(policy="canonical"))
        self.seed = seed
        # id(a step's messages) -> (those messages, kept so the id stays theirs; the turns)
        self._plans: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}

    async def next_turn(self, situation: Situation) -> Turn:
        key = id(situation.messages)
        position = sum(1 for m in situation.messages if m.get("role") == "assistant")
        if key not in self._plans:
            if position:  # the plan's action was refused: planning again would skip an act
                return _refused_turn(situation.messages)
            self._plans[key] = (situation.messages, await self._plan(situation))
        plan = self._plans[key][1]
        if position >= len(plan) - 1:
            del self._plans[key]  # the step's last turn: its plan is spent
        message = plan[position]
        call = ToolCall(message["tool_calls"][0]["function"]["name"],
                        message["tool_calls"][0]["function"]["arguments"])
        return turn_from_calls([call], message.get("content") or "",
                               calls_before(situation.messages))

    async def _plan(self, situation: Situation) -> list[dict[str, Any]]:
        gold = situation.gold
        if isinstance(gold, LiveOracle):
            step = await gold.next_step(situation.task, list(situation.history), situation.page,
                                        self.seed)
            if step is None:
                return [_done_message(gold.finished)]
        elif isinstance(gold, Step):
            step = gold
        else:
            return [_done_message("no gold step to follow")]
        trajectory = self.teacher.propose(step, situation.page, situation.mode,
                                          step_rng(self.seed, step.step_id, situation.mode))
        turns = [m for m in trajectory.messages if m.get("role") == "assistant"]
        if trajectory.meta.get("error") or not turns:
            return [_done_message(trajectory.meta.get("error", "no call"))]
        if not trajectory.meta.get("found"):  # its queries missed: the oracle knows the target
            if _is_action(turns[-1]):
                turns.pop()  # the teacher's guess, the last query's top result
            call = action_call(step.operation.op, trajectory.meta["targets"][0],
                               step.operation.value, step.operation.original_op, situation.page)
            turns.append(turn_from_calls([call], "Acting on the known target.").message)
        return turns


def _is_action(message: dict[str, Any]) -> bool:
    name = message["tool_calls"][0]["function"]["name"]
    return spec(name).kind == "action"


def _done_message(reason: str) -> dict[str, Any]:
    return {"role": "assistant", "content": f"The oracle cannot go on: {reason}",
            "tool_calls": [{"type": "function", "function": {
                "name": "done", "arguments": {"answer": f"oracle: {reason}"}}}]}


def _refused_turn(messages: list[dict[str, Any]]) -> Turn:
    """``done`` naming why the executor refused the step's action (its tool result)."""
    reason = messages[-1].get("content", "") if messages[-1].get("role") == "tool" else ""
    answer = f"oracle: its action was refused: {reason}"[:300]
    return turn_from_calls([make_call("done", answer=answer)],
                           "The oracle cannot go on: its action was refused.",
                           calls_before(messages))


class RandomPolicy:
    """Acts at once on a uniformly drawn element (the floor)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    async def next_turn(self, situation: Situation) -> Turn:
        rng = step_rng(self.seed, f"{situation.task}\x00{len(situation.history)}\x00"
                       f"{len(situation.messages)}", situation.mode)
        page = situation.page
        position = calls_before(situation.messages)
        if not page.refs:
            return turn_from_calls([make_call("done")], "No element to act on.", position)
        ref = rng.choice(sorted(page.refs))
        node = page.refs[ref]
        words = situation.task.split() or ["text"]
        if node.tag == "select" and node.attrs.get("first_options"):
            options = [o.strip() for o in node.attrs["first_options"].split("|") if o.strip()]
            call = make_call("select", index=ref, option=rng.choice(options or ["1"]))
        elif node.tag in ("input", "textarea") and node.attrs.get("type", "text") in (
                "text", "password", "email", "search", "tel", "url", "number"):
            call = make_call("type", index=ref, text=rng.choice(words).strip("\"'.,"))
        else:
            call = make_call("click", index=ref)
        return turn_from_calls([call], "A random action.", position)


class PlannerPolicy:
    """The engine's own plan from the task alone, acted on its top result (no model)."""

    name = "planner"

    async def next_turn(self, situation: Situation) -> Turn:
        page = situation.page
        position = calls_before(situation.messages)
        plan, found = planned_search(situation.task, situation.history, page)
        if not found.refs:
            return turn_from_calls([make_call("done", answer="planner: no element matches")],
                                   "Nothing on the page matches the task.", position)
        ref = found.refs[0]
        node = page.state.nodes[page.node_of(ref)]
        if plan.op == "TYPE" and plan.value and is_text_field(node):
            call = make_call("type", index=ref, text=plan.value)
        elif plan.op == "SELECT" and plan.value and node.tag == "select":
            call = make_call("select", index=ref, option=plan.value)
        else:
            call = make_call("click", index=ref)
        return turn_from_calls([call], f"The top of {found.total} matches for the task's "
                               f"{plan.op.lower()} at step {len(situation.history) + 1}.",
                               position)
