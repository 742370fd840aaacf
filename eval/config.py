"""The eval stage's config: one dataclass, validated up front by ``pipeline.config.load_config``.

    python -m eval --config configs/eval/miniwob.yaml checkpoint=runs/training/smollm2-135m-cpu
    python -m eval --config configs/eval/mind2web.yaml input=/data/mind2web/test_task policy=oracle

``policy`` and ``mode`` take one name or a list: the checkpoint and an openai endpoint run in
every listed mode; the baselines (oracle, random, the untuned base model) run once, in the first. A run is
``<policy>/<mode>``; all runs of one invocation land in one results.json and one table.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from datagen.build_config import SplitConfig
from datagen.miniwob.heldout import HELDOUT_TASKS
from datagen.teachers import OracleConfig
from pipeline.agent.loop import StepLimits
from pipeline.agent.modes import MODES
from pipeline.agent.openai_client import ClientConfig
from pipeline.config import load_config
from pipeline.live.browser import BrowserConfig
from pipeline.model.lookup import LOOKUP_TOKENS

POLICIES = ("oracle", "random", "planner", "base", "checkpoint", "openai")
# Live episode seeds by use (the recorder plays 0.., DAgger 5000..9999, datagen.dagger.config):
# eval's test seeds and checkpoint selection's validation seeds never meet a training page.
TEST_SEEDS = range(10_000, 20_000)
VALIDATION_SEEDS = range(20_000, 30_000)
BASELINES = ("oracle", "random", "planner", "base")  # run once, in the first mode
Benchmark = Literal["miniwob", "mind2web", "browsergym"]


@dataclass(slots=True)
class GenerationConfig:
    max_length: int = 1536  # prompt + answer tokens (prompts are cut as in training)
    max_new_tokens: int = 96
    batch_size: int = 8
    bf16: bool | None = None  # null: where the CPU (or GPU) runs bf16 natively
    dtype: Literal["float32", "bfloat16"] = "float32"  # weights as loaded
    threads: int | None = None  # torch CPU threads; null: torch's default (all cores)
    prefix_cache: int = 16  # sequences whose keys and values later calls reuse; 0: off
    lookup_tokens: int = LOOKUP_TOKENS  # prompt-lookup draft ids per decode forward; 0: off
    # answers forked where the model was least sure, tried when the greedy one repeats a call
    # the step refused (pipeline.agent.alternatives); 0 (default): the greedy answer only
    alternatives: int = 0
    # a typed text or selected option that copies nothing of the conversation is decoded again
    # as the model's most likely copy (pipeline.agent.copied_values); false: the greedy value
    copy_values: bool = True
    # a typed text another text field of the form already holds is decoded again as a copy
    # without it (pipeline.agent.repeated_values); false: as generated
    distinct_values: bool = True
    # "torch" or "llama.cpp" (a GGUF export decoded by llama.cpp: pip install
    # 'pagescout[llamacpp]'); gguf_weights: "f16", "q8_0" or "f32" for llama.cpp
    backend: Literal["torch", "llama.cpp"] = "torch"
    gguf_weights: Literal["f16", "q8_0", "f32"] = "f16"


@dataclass(slots=True)
class MiniwobConfig:
    """Live MiniWoB++ episodes: the held-out seeds of the trained tasks and the held-out tasks."""

    tasks: list[str] | None = None  # null: every task with a scripted oracle policy
    # tasks no training run saw; by default the set datagen holds out (datagen.miniwob.heldout)
    heldout_tasks: list[str] = field(default_factory=lambda: sorted(HELDOUT_TASKS))
    seeds_per_task: int = 3
    # runs that play another number of seeds per task, e.g. {base/query_only: 1}: a baseline
    # known to fail everywhere need not spend the time of the runs being compared
    seeds_per_run: dict[str, int] = field(default_factory=dict)
    first_seed: int = TEST_SEEDS.start  # far from the training seeds, so never a training page
    episode_max_time_ms: int = 120_000  # the task's own timer (raw reward ignores time)
    disable_animations: bool = True  # jQuery.fx.off, as the recorder plays
    # after an action, wait at most this long before the next capture, for the timers it set
    # and a quiet DOM: jQuery UI's autocomplete opens its menu 300 ms after the last keystroke,
    # and timers of other widgets are shorter
    after_action_ms: int = 400


@dataclass(slots=True)
class Mind2webConfig:
    input: str | list[str] = field(default_factory=list)  # task files, folders or globs
    splits: SplitConfig = field(default_factory=SplitConfig)  # as datagen build assigned them
    eval_splits: list[str] = field(default_factory=lambda: ["test_task", "test_website",
                                                            "test_domain"])
    concurrency: int = 8  # steps played at once (a model policy batches them)

    @property
    def inputs(self) -> list[str]:
        return [self.input] if isinstance(self.input, str) else list(self.input)


@dataclass(slots=True)
class BrowserGymConfig:
    """BrowserGym's MiniWoB benchmark (``eval.browsergym``): where BrowserGym is, which tasks."""

    venv: str | None = None  # null: $PAGESCOUT_BROWSERGYM_VENV or .cache/browsergym-venv
    # null: all 125 tasks (625 episodes); "scripted": the tasks the oracle has a scripted policy
    # for; or a list of task names (without "miniwob.")
    tasks: str | list[str] | None = None

    def validate(self) -> list[str]:
        if self.tasks is None or self.tasks == "scripted":
            return []
        from eval.browsergym.benchmark import TASKS

        names = [self.tasks] if isinstance(self.tasks, str) else list(self.tasks)
        unknown = [t for t in names if t not in TASKS]
        if unknown or not names:
            return [(f"tasks: {unknown or '[]'} are not tasks of BrowserGym's MiniWoB "
                     "benchmark -- use null, scripted, or names from "
                     "eval.browsergym.benchmark.TASKS (e.g. click-button)")]
        return []


@dataclass(slots=True)
class EvalConfig:
    benchmark: Benchmark = "miniwob"
    output_dir: str = "outputs/eval/miniwob"
    seed: int = 0
    limit: int | None = None  # episodes (live) or steps (offline) per run at most
    policy: str | list[str] = "checkpoint"
    mode: str | list[str] = "query_only"
    checkpoint: str = "runs/training/smollm2-135m-cpu"  # a run folder, adapter or merged folder
    checkpoints: list[str] = field(default_factory=list)  # eval select: the ones it compares
    model: str = "smollm2"  # the untuned base model of policy ``base``
    workers: int = 2  # live episodes at once, each in its own browser
    episode_timeout_s: float = 180.0  # wall time of one live episode before it fails
    max_tool_calls: int = 6  # per step: queries plus rejected replies
    max_steps: int = 10  # actions per live episode
    max_idle_steps: int = 3  # a live episode stops after this many steps in a row without action
    max_invalid_replies: int = 3  # unusable replies in a row that end the step and the episode
    refuse_futile_repeats: bool = True  # refuse an action again that changed nothing (live)
    progress: bool = True
    generation: GenerationConfig = field(default_factory=GenerationConfig)
    oracle: OracleConfig = field(default_factory=lambda: OracleConfig(policy="canonical"))
    openai: ClientConfig = field(default_factory=ClientConfig)
    browser: BrowserConfig = field(default_factory=BrowserConfig)
    miniwob: MiniwobConfig = field(default_factory=MiniwobConfig)
    mind2web: Mind2webConfig = field(default_factory=Mind2webConfig)
    browsergym: BrowserGymConfig = field(default_factory=BrowserGymConfig)

    @property
    def policies(self) -> list[str]:
        return [self.policy] if isinstance(self.policy, str) else list(self.policy)

    @property
    def modes(self) -> list[str]:
        return [self.mode] if isinstance(self.mode, str) else list(self.mode)

    def runs(self) -> list[tuple[str, str]]:
        """(policy, mode) pairs in the order they run: baselines first, in the first mode."""
        out = [(p, self.modes[0]) for p in self.policies if p in BASELINES]
        return out + [(p, m) for p in self.policies if p not in BASELINES for m in self.modes]

    def step_limits(self, episode: bool = True) -> StepLimits:
        """The loop's limits (errors answered, as a served model gets them); ``episode=False``
        for recorded steps, where only the per-step limits apply."""
        limits = StepLimits(max_tool_calls=self.max_tool_calls, feedback_errors=True,
                            max_invalid_replies=self.max_invalid_replies)
        if not episode:
            return limits
        return replace(limits, max_steps=self.max_steps, max_idle_steps=self.max_idle_steps,
                       refuse_futile_repeats=self.refuse_futile_repeats)

    def validate(self) -> list[str]:
        problems = []
        unknown = [p for p in self.policies if p not in POLICIES]
        if unknown or not self.policies:
            problems.append(f"policy: {unknown or '[]'} -- use one or more of "
                            f"{', '.join(POLICIES)}")
        bad_modes = [m for m in self.modes if m not in MODES]
        if bad_modes or not self.modes:
            problems.append(f"mode: {bad_modes or '[]'} -- use one or more of {', '.join(MODES)}")
        if "openai" in self.policies:
            problems += [f"openai.{p}" for p in self.openai.missing()]
        for key in ("workers", "max_tool_calls", "max_steps", "max_idle_steps",
                    "max_invalid_replies"):
            if getattr(self, key) < 1:
                problems.append(f"{key}: {getattr(self, key)} must be at least 1")
        runs = {f"{policy}/{mode}" for policy, mode in self.runs()}
        for run, seeds in self.miniwob.seeds_per_run.items():
            if run not in runs or not isinstance(seeds, int) or isinstance(seeds, bool) \
                    or seeds < 1:
                problems.append(f"miniwob.seeds_per_run: {run}: {seeds!r} -- give a run of "
                                f"this config ({', '.join(sorted(runs))}) a positive number")
        for key, value in (("limit", self.limit), ("generation.threads", self.generation.threads)):
            if value is not None and value < 1:
                problems.append(f"{key}: {value} must be at least 1 (or null)")
        for key in ("prefix_cache", "lookup_tokens"):
            if getattr(self.generation, key) < 0:
                problems.append(f"generation.{key}: {getattr(self.generation, key)} must be "
                                "0 (off) or more")
        if self.benchmark == "mind2web" and not self.mind2web.inputs:
            problems.append("mind2web.input: give the task files, e.g. "
                            "mind2web.input=/data/mind2web/test_task")
        return problems


def load_eval_config(path: str | None, overrides: list[str]) -> EvalConfig:
    return load_config(EvalConfig, path, _shortcuts(overrides))


def _shortcuts(overrides: list[str]) -> list[str]:
    """``input=...`` is ``mind2web.input=...`` (the key users type for task files)."""
    return [f"mind2web.{o}" if o.startswith("input=") else o for o in overrides]
