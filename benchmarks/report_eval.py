"""The eval issue's sections of docs/BENCHMARKS.md: live and offline evaluation tables, the
agent-step token costs, and the issue's targets, from the results the eval scripts kept.

    parts += eval_sections(results)     # results: name -> JSON of benchmarks/results/<name>.json

Inputs: ``eval_miniwob`` / ``eval_mind2web_miniwob`` / ``eval_browsergym`` /
``eval_browsergym_oracle`` (a later round of the oracle alone, after fixes the first round
showed) / ``eval_browsergym_calls`` (round 1 of a checkpoint trained on calls without
rationales) / ``eval_browsergym_engine`` (round 1 of a student trained and played with the
engine fixes its failures showed, futile repeats refused) / ``eval_browsergym_planner`` (the
engine's planner, no model, all five rounds) / ``eval_browsergym_demo`` and
``eval_browsergym_planned`` (round 1 of two students trained on the same records for the same
steps, in ``query_only`` and in ``planned`` mode) / ``eval_browsergym_grounded`` (rounds 1-2 of
a planned student whose typed values are all grounded) / ``eval_browsergym_long`` (all five rounds
of the same data trained for 30 minutes) / ``eval_browsergym_forks`` (that student again, a
repeated refused call replaced by a forked answer; all written by
``benchmarks/eval_benchmark.py``) and ``agent``
(``benchmarks/agent_benchmark.py``).
"""

from __future__ import annotations

from typing import Any

from common import markdown_table
from steps_curve import GROUPS
from targets import Target

BROWSERGYM_RESULTS = ("eval_browsergym", "eval_browsergym_calls", "eval_browsergym_engine")
MISSING = "_`benchmarks/results/{name}.json` is missing: that benchmark has not run._"
LIVE = (("success_rate", "success %"), ("valid_call_rate", "valid calls %"),
        ("steps_per_episode", "steps"), ("tool_calls_per_step", "queries/step"),
        ("prompt_tokens_per_step", "prompt tok/step"),
        ("observation_tokens_per_step", "obs tok/step"), ("seconds_per_episode", "s/episode"))
OFFLINE = (("element_accuracy", "Ele.Acc %"), ("operation_f1", "Op.F1 %"), ("step_sr", "Step SR %"),
           ("task_sr", "Task SR %"), ("valid_call_rate", "valid calls %"),
           ("tool_calls_per_step", "queries/step"), ("prompt_tokens_per_step", "prompt tok/step"),
           ("observation_tokens_per_step", "obs tok/step"), ("seconds_per_step", "s/step"))
PERCENT = {"success_rate", "valid_call_rate", "element_accuracy", "operation_f1", "step_sr",
           "task_sr"}

# The sections of live and offline eval results, in page order: (result name, title); a name
# of benchmarks/steps_curve.py's (STEPS_CURVES) gets its table of paired runs instead.
SECTIONS = (
    ("eval_miniwob", "Live MiniWoB++ (eval)"),
    ("eval_mind2web_miniwob", "Offline Mind2Web metrics on the held-out recorded steps"),
    ("eval_browsergym", "BrowserGym MiniWoB benchmark"),
    ("eval_browsergym_oracle", (
        "BrowserGym MiniWoB benchmark: the oracle again, after the fixes round 1 showed")),
    ("eval_browsergym_calls", (
        "BrowserGym MiniWoB benchmark: a checkpoint that answers in calls alone (no rationale)")),
    ("eval_browsergym_engine", (
        "BrowserGym MiniWoB benchmark: the engine fixes read from the student's failures, "
        "futile repeats refused")),
    ("eval_browsergym_planner", (
        "BrowserGym MiniWoB benchmark: the engine's planner alone (no model)")),
    ("eval_browsergym_demo", (
        "BrowserGym MiniWoB benchmark, rounds 1-2 (the first 190 episodes): the demo's records "
        "and steps trained in query_only mode")),
    ("eval_browsergym_planned", (
        "BrowserGym MiniWoB benchmark, all five rounds: the same records and steps trained in "
        "planned mode (the planner's candidates in the prompt)")),
    ("eval_browsergym_grounded", (
        "BrowserGym MiniWoB benchmark, rounds 1-2 (the first 250 episodes): a planned student "
        "trained only on values it read (ungrounded typing rejected, the page's text read "
        "first)")),
    ("eval_browsergym_long", (
        "BrowserGym MiniWoB benchmark, all five rounds: the same data trained for 30 minutes")),
    ("eval_browsergym_forks", (
        "BrowserGym MiniWoB benchmark, rounds 1-2 (the first 250 episodes): the 30-minute "
        "student, a repeated refused call replaced by one of 4 answers forked where the model "
        "was least sure (generation.alternatives=4)")),
    ("eval_browsergym_round", (
        "BrowserGym MiniWoB benchmark, rounds 1-2 (the first 250 episodes): the same data, 30 "
        "minutes of today's CPU config (packed pairs, frozen weights in bf16, rows rounded to "
        "128; 1,265 steps)")),
    ("eval_browsergym_round40", (
        "BrowserGym MiniWoB benchmark, round 1 (the first 125 episodes): the same data, 40 "
        "minutes of today's CPU config")),
    ("browsergym_steps", "BrowserGym: live success against training steps (the same records)"),
    ("eval_browsergym_dagger", (
        "BrowserGym MiniWoB benchmark, rounds 1-3 (the first 375 episodes): the 1,265-step "
        "student trained 20 minutes more on records of 12 seeds a task and 953 states it "
        "reached itself, labelled by the oracle (DAgger)")),
    ("eval_browsergym_wide", (
        "BrowserGym MiniWoB benchmark, rounds 1-2 (the first 250 episodes): the control, the "
        "same 20 minutes on the records of 12 seeds a task alone")),
    ("browsergym_dagger", "BrowserGym: a DAgger round against its control (other records)"),
    ("eval_browsergym_dagger2", (
        "BrowserGym MiniWoB benchmark, all five rounds: a second DAgger round, the DAgger "
        "student's own 1,113 states labelled and 20 minutes more")),
    ("browsergym_dagger2", "BrowserGym: two DAgger rounds, one after the other"),
    ("eval_browsergym_recipe", (
        "BrowserGym MiniWoB benchmark, all five rounds: the DAgger recipe's winner "
        "(configs/chain/dagger.yaml: planned mode, calls alone, 54 minutes of data, DAgger and "
        "training)")),
    ("eval_browsergym_recipe_r2", (
        "BrowserGym MiniWoB benchmark, round 1 (the first 125 episodes): the recipe's winner "
        "after a second DAgger round (863 more states, 15 minutes more)")),
    ("eval_browsergym_sliders", (
        "BrowserGym MiniWoB benchmark, all five rounds: the recipe re-run with select on "
        "sliders (the number, set with the handle's keys) and highlight-text(-2) recorded, on "
        "a slower machine (61.8 minutes; 1,084 + 682 training steps)")),
    ("eval_browsergym_colour", (
        "BrowserGym MiniWoB benchmark, all five rounds: the recipe re-run with the slider "
        "policies on the slider element and swatches and shapes named by colour, on a faster "
        "machine with bf16 matrix units (53.9 minutes; 2,178 + 1,250 training steps)")),
    ("eval_browsergym_clauses", (
        "BrowserGym MiniWoB benchmark, all five rounds: the same checkpoint, the planner reading "
        "the history (the clause not done yet, a paged list's pager, a reply's text typed) and "
        "a dropdown's default not taken as chosen")),
    ("eval_browsergym_menus", (
        "BrowserGym MiniWoB benchmark, all five rounds: the same checkpoint, and a card's author "
        "line searched, a pointer bar no control, a name nowhere on the page looked for behind "
        "a menu")),
    ("eval_browsergym_extremes", (
        "BrowserGym MiniWoB benchmark, all five rounds: the same checkpoint, and a superlative "
        "read on the page (the cheapest, the longest), an ordinal counted in its clause's role, "
        "a filled form sent, what is done listed below what is still to do")),
    ("eval_browsergym_recipients", (
        "BrowserGym MiniWoB benchmark, all five rounds: the same checkpoint, and a recipient "
        "typed into the To field, 'all posts by @x' read as x's alone, 'Delete' as the trash "
        "icon, a comma before a verb ending a clause")),
    ("eval_browsergym_shapes", (
        "BrowserGym MiniWoB benchmark, rounds 1-2 (the first 250 episodes): the same checkpoint, "
        "and shapes found by how they are drawn, a shape in its box done, a word's ends, values "
        "said in words paired with their fields, more recipients")),
    ("eval_browsergym_copy", (
        "BrowserGym MiniWoB benchmark, rounds 1-2 (the first 250 episodes): the same checkpoint, "
        "a typed text or chosen option that copies nothing decoded again as a copy, words "
        "similar to the asked ones found by meaning, what is still to do listed first among "
        "the elements no word matched")),
    ("eval_browsergym_s46", (
        "BrowserGym MiniWoB benchmark, rounds 1-2 (the first 250 episodes): the same checkpoint, "
        "a typed value in the letter case the task asks for or else as the conversation writes "
        "it, and what opens a hidden element the task names listed first")),
    ("eval_browsergym_s47", (
        "BrowserGym MiniWoB benchmark, rounds 1-2 (the first 250 episodes): the same checkpoint, "
        "a number field clicked left of its spin buttons, letters drawn one by one copied as "
        "the page writes them, and a dragged list item listed before the rest of its list")),
    ("eval_browsergym_s48", (
        "BrowserGym MiniWoB benchmark, all five rounds (625 episodes): the same checkpoint at "
        "the engine of eval_browsergym_s47 (its 250 episodes, and rounds 3-5 played after)")),
    ("eval_browsergym_s50", (
        "BrowserGym MiniWoB benchmark, rounds 1-2 (the first 250 episodes): the recipe re-run "
        "on a CPU without bf16 units (454 + 299 training steps in the recipe's minutes)")),
    ("eval_browsergym_s51", (
        "BrowserGym MiniWoB benchmark, all five rounds (625 episodes; round 1 played one "
        "session, rounds 2-5 the next, engine of e95ec34): the recipe re-run with Mind2Web's "
        "ENTER trained as a key press and guesses within the task's range grounded (the same "
        "454 + 299 steps, as overrides)")),
    ("eval_browsergym_s57", (
        "BrowserGym MiniWoB benchmark, all five rounds (625 episodes): the recipe re-run on an "
        "EPYC with AVX512-BF16 (1,465 + 1,117 training steps in the recipe's minutes, bf16)")),
    ("eval_browsergym_s58", (
        "BrowserGym MiniWoB benchmark, all five rounds (625 episodes): the recipe re-run with "
        "drawings described and counted, a record's value shown beside its field (engine of "
        "a89ccdc; the same 1,465 + 1,117 steps, as overrides)")),
    ("eval_browsergym_s60", (
        "BrowserGym MiniWoB benchmark, all five rounds (625 episodes): the recipe re-run at "
        "f161e5b (answered questions, a scroll clause, the last field of a form; the same 1,465 "
        "+ 1,117 steps, as overrides), played at the engine of 331b726 (a number's rule, a "
        "number set with a named control, a hidden tab, an icon the task shows)")),
    ("eval_browsergym_s61", (
        "BrowserGym MiniWoB benchmark, all five rounds (625 episodes): the recipe re-run at "
        "e6023fc (drag places, sliders by the value each shows, cards turned one at a time, a "
        "guessed number's range; the same 1,465 + 1,117 steps, as overrides), played at the "
        "engine of b404f7d (an empty card set, a click's filled fields at the first step only)")),
    ("eval_browsergym_s62", (
        "BrowserGym MiniWoB benchmark, all five rounds (625 episodes): the recipe re-run at "
        "64bc9bb (a task's value after a field's label, a count of drawn things, a calendar's "
        "year jump, the paragraph to highlight, a futile element listed last; the same 1,465 + "
        "1,117 steps, as overrides), played at the engine of 1905260 (the same engine)")),
    ("eval_browsergym_s63", (
        "BrowserGym MiniWoB benchmark, all five rounds (625 episodes): the recipe re-run at "
        "edf232b (an editor's keys, a terminal's latest output, a slider's shown value, DAgger's "
        "oracle restarting the terminal, the text editor and book-flight where a student left "
        "them; the same 1,465 + 1,117 steps, as overrides), played at the same engine")),
    ("eval_browsergym_s64", (
        "BrowserGym MiniWoB benchmark, all five rounds (625 episodes): the recipe re-run at "
        "b6e94d3 (a menu item that opens a submenu says so, the terminal's help read before "
        "its ls; the same 1,465 + 1,117 steps, as overrides), played at the same engine")),
)
STEPS_CURVES = ("browsergym_steps", "browsergym_dagger", "browsergym_dagger2")
EVAL_RESULTS = (*(name for name, _ in SECTIONS), "agent", "throughput_cache")


def cell(key: str, figure: Any) -> str:
    if not isinstance(figure, dict) or not figure.get("n"):
        return "–"
    if key in PERCENT:
        return (f"{100 * figure['value']:.1f} [{100 * figure['low']:.0f}–"
                f"{100 * figure['high']:.0f}] n={figure['n']}")
    return f"{figure['value']:.1f}"


def runs_table(runs: dict[str, Any], columns, group: str | None) -> str:
    rows = []
    for run, data in runs.items():
        figures = data["aggregate"] if group is None else data["groups"].get(group)
        if figures:
            rows.append([run, *[cell(k, figures.get(k)) for k, _ in columns]])
    return markdown_table(["run", *[name for _, name in columns]], rows)


def eval_section(title: str, result: dict[str, Any] | None, name: str) -> list[str]:
    if result is None:
        return [f"## {title}", "", MISSING.format(name=name), ""]
    ev = result["eval"]
    live = ev["benchmark"] != "mind2web"
    columns = LIVE if live else OFFLINE
    groups = sorted({g for d in ev["runs"].values() for g in d["groups"]})
    where = (f"Command: `{result['eval_command']}` (commit "
             f"`{(ev.get('git_commit') or '?')[:10]}`, {ev['machine']['processor']}).")
    out = [f"## {title}", "", where, ""]
    out += [f"- {note}" for note in ev.get("notes", [])] + [""]
    out += ["All:", "", runs_table(ev["runs"], columns, None), ""]
    for group in groups:
        out += [f"{group}:", "", runs_table(ev["runs"], columns, group), ""]
    for caption, rows in ev.get("reference_rows", {}).items():
        out += [f"{caption}:", "", markdown_table(["agent", "success", "episodes"],
                                                  [[r["agent"], r["success"], r["n"]]
                                                   for r in rows]), ""]
    speed = [[run, d["generation"]["prompts"], d["generation"]["generated_tokens"],
              d["generation"]["tokens_per_s"], d["aggregate"].get("episodes_per_minute")]
             for run, d in ev["runs"].items() if d.get("generation")]
    if speed:
        out += ["Generation:", "", markdown_table(
            ["run", "prompts", "generated tokens", "tokens/s", "episodes/min"], speed), ""]
    return out


def agent_section(agent: dict[str, Any] | None) -> list[str]:
    if agent is None:
        return ["## Agent step cost by page size", "", MISSING.format(name="agent"), ""]
    pages = agent["pages"]
    how = (f"Command: `{agent['command']}` (policy {agent['policy']}). Prompt tokens of the turn "
           "that writes the action, rendered as training renders it (queries and their results "
           "included).")
    return ["## Agent step cost by page size", "", how, "",
            markdown_table(["page", "refs", "full", "hybrid", "query_only", "query_only/full %"],
                           [[p["page"], p["refs"], p.get("full"), p.get("hybrid"),
                             p.get("query_only"), None if p["query_only_share"] is None
                             else 100 * p["query_only_share"]] for p in pages]), ""]


def eval_targets(results: dict[str, dict[str, Any] | None]) -> list[Target]:
    out = []
    live = (results.get("eval_miniwob") or {}).get("eval", {}).get("runs", {})
    live_mode = _mode_of(live)
    checkpoint = live.get(f"checkpoint/{live_mode}", {})
    trained = checkpoint.get("groups", {}).get("trained", {}).get("success_rate")
    held = checkpoint.get("groups", {}).get("heldout_task", {}).get("success_rate")
    out.append(_share(f"checkpoint, {live_mode}, live: held-out seeds of trained tasks",
                      trained, 0.90))
    out.append(Target(f"checkpoint, {live_mode}, live: tasks held out of training",
                      "measured and reported", _show(held), None if held is None else True))
    oracle = live.get(f"oracle/{live_mode}", {}).get("aggregate", {}).get("success_rate")
    out.append(_share("oracle, live, on the tasks it covers", oracle, 0.98))
    out.append(throughput_target(results.get("throughput_cache"), checkpoint))
    offline = (results.get("eval_mind2web_miniwob") or {}).get("eval", {}).get("runs", {})
    mode = _mode_of(offline)
    agg = offline.get(f"checkpoint/{mode}", {}).get("aggregate", {})
    out.append(_share(f"offline, held-out recorded steps: Step SR ({mode})", agg.get("step_sr"),
                      0.85))
    out.append(_share(f"offline, held-out recorded steps: valid calls ({mode})",
                      agg.get("valid_call_rate"), 0.99))
    agent = results.get("agent") or {}
    worst = (agent.get("targets") or {}).get("worst_query_only_share")
    out.append(Target("query_only prompt tokens per step, pages > 300 refs", "<= 15% of full",
                      "not measured" if worst is None else f"{100 * worst:.1f}% (worst page)",
                      None if worst is None else worst <= 0.15))
    out.append(browsergym_full_target(results))
    return out


def _mode_of(runs: dict[str, Any]) -> str:
    """The mode a run's checkpoint row is read in: query_only, else planned (query_only plus
    the engine's candidates for the step)."""
    return next((m for m in ("query_only", "planned") if f"checkpoint/{m}" in runs),
                "query_only")


def browsergym_full_target(results: dict[str, dict[str, Any] | None]) -> Target:
    """Whether a checkpoint has played the whole benchmark: the BrowserGym results whose
    checkpoint run holds the most episodes (the latest of equals), named in the row."""
    best: tuple[int, str, dict] | None = None
    for name in BROWSERGYM_RESULTS:
        runs = (results.get(name) or {}).get("eval", {}).get("runs", {})
        if not runs:
            continue
        run = runs.get("checkpoint/query_only", {}).get("aggregate", {})
        episodes = run.get("episodes") or max(d["aggregate"]["episodes"] for d in runs.values())
        if best is None or episodes >= best[0]:
            best = (episodes, name, run)
    if best is None:
        return Target("BrowserGym MiniWoB: the full 125-task run", "625 episodes, reported",
                      "not measured", None)
    episodes, name, run = best
    model = run.get("success_rate")
    measured = f"{episodes} of 625 episodes a run ({name})" + (
        f"; checkpoint/query_only {_show(model)}" if model else "")
    return Target("BrowserGym MiniWoB: the full 125-task run", "625 episodes, reported",
                  measured, episodes >= 625,
                  "" if episodes >= 625 else
                  f"{625 - episodes} episodes a run not played yet (the run resumes)")


def throughput_target(bench: dict[str, Any] | None, checkpoint: dict[str, Any]) -> Target:
    """From ``benchmarks/throughput_benchmark.py`` when it ran, else from the live eval."""
    if bench:
        t = bench["throughput"]
        speed = t["episodes_per_minute"]
        workers = next(o.split("=", 1)[1] for o in bench["overrides"] if o.startswith("workers="))
        how = (f"{t['episodes']} episodes, {workers} workers, load average "
               f"{t['load_avg_start'][0]} -> {t['load_avg_end'][0]}")
    else:
        speed = checkpoint.get("aggregate", {}).get("episodes_per_minute")
        how = "the live eval, 2 workers"
    return Target("throughput: 100 live episodes of the 135M checkpoint", "<= 10 minutes",
                  "not measured" if not speed else f"{100 / speed:.1f} minutes "
                  f"({speed:.1f} episodes/min; {how})", None if not speed else 100 / speed <= 10)


def _share(name: str, figure: dict[str, Any] | None, goal: float) -> Target:
    if figure is None:
        return Target(name, f">= {goal:.0%}", "not measured", None)
    met = figure["value"] >= goal
    return Target(name, f">= {goal:.0%}", _show(figure), met,
                  "" if met else f"{100 * (goal - figure['value']):.1f} points short")


def _show(figure: dict[str, Any] | None) -> str:
    if figure is None:
        return "not measured"
    return (f"{100 * figure['value']:.1f}% [{100 * figure['low']:.1f}, "
            f"{100 * figure['high']:.1f}] (n={figure['n']})")


def eval_sections(results: dict[str, dict[str, Any] | None]) -> list[str]:
    rows = [[t.name, t.target, t.measured,
             {True: "met", False: "NOT met", None: "not measured"}[t.met], t.gap]
            for t in eval_targets(results)]
    out = ["## Targets (issue 12: eval)", "",
           markdown_table(["target", "goal", "measured", "verdict", "gap"], rows), ""]
    for name, title in SECTIONS:
        out += (steps_section(results.get(name), name, title) if name in STEPS_CURVES
                else eval_section(title, results.get(name), name))
    return out + agent_section(results.get("agent"))


def steps_section(steps: dict[str, Any] | None, name: str, title: str) -> list[str]:
    """Students after more or fewer steps, on the episodes all played
    (``benchmarks/steps_curve.py``, result ``name``)."""
    out = ["", f"### {title}", ""]
    if steps is None:
        return out + [MISSING.format(name=name)]
    rows = [[p["steps"], p["conversations"], p["epochs"], p["step_minutes"],
             100 * p["success"]["value"], *(100 * p["groups"][g]["value"] for g in GROUPS)]
            for p in steps["points"]]
    out += [(f"On the {steps['episodes']} episodes every run played; `{steps['command']}` "
             f"(commit `{steps['commit']}`)."), "",
            markdown_table(["steps", "conversations", "epochs", "minutes of steps", "success %",
                            *(f"{g} %" for g in GROUPS)], rows), ""]
    out += [f"- {p['from']} -> {p['to']} steps: {p['only_later']} episodes finished by the "
            f"later student alone, {p['only_earlier']} by the earlier alone (sign test p = "
            f"{p['sign_test_p']:.2g})" for p in steps["pairs"]]
    image = steps["plot"].removeprefix("docs/")  # the page sits in docs/
    return out + ["", f"![success against training steps]({image})", ""]
