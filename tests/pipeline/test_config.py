"""Config loading: YAML + overrides into a dataclass, every problem reported at once."""

from dataclasses import dataclass, field
from typing import Literal

import pytest

from pipeline.config import load_config
from pipeline.errors import FormatError


@dataclass
class Inner:
    timeout_ms: int = 1000
    path: str | None = None


@dataclass
class Stage:
    seed: int = 0
    rate: float = 0.5
    mode: Literal["flat", "outline"] = "flat"
    tasks: list[str] = field(default_factory=list)
    inner: Inner = field(default_factory=Inner)

    def validate(self) -> list[str]:
        return [] if self.seed >= 0 else ["seed: must be >= 0"]


def test_yaml_and_overrides(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("seed: 3\ntasks: [a, b]\ninner:\n  timeout_ms: 50\n")
    cfg = load_config(Stage, path, ["inner.path=/x", "rate=1", "mode=outline"])
    assert cfg == Stage(3, 1.0, "outline", ["a", "b"], Inner(50, "/x"))


def test_every_problem_named_in_one_error(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("sede: 3\nmode: tree\ninner:\n  timeout_ms: fast\n")
    with pytest.raises(FormatError) as info:
        load_config(Stage, path, ["noequals"])
    message = str(info.value)
    assert "4 problem(s)" in message
    assert "unknown key 'sede'; did you mean 'seed'?" in message
    assert "mode: 'tree' is not one of 'flat', 'outline'" in message
    assert "inner.timeout_ms: 'fast' is not a int" in message
    assert "override 'noequals'" in message
    assert str(path) in message


def test_validate_hook_and_missing_file(tmp_path):
    with pytest.raises(FormatError, match="seed: must be >= 0"):
        load_config(Stage, None, ["seed=-1"])
    with pytest.raises(FormatError, match="cannot read"):
        load_config(Stage, tmp_path / "missing.yaml")


def test_yaml_booleans_become_the_literal_words_they_were():
    @dataclass
    class Judge:
        kind: Literal["off", "local"] = "local"

    assert load_config(Judge, None, ["kind=off"]).kind == "off"


def test_exponent_floats_read_as_numbers_in_files_and_overrides(tmp_path):
    """PyYAML reads ``1e-3`` as a string (YAML 1.1); configs read it as YAML 1.2 does."""
    path = tmp_path / "c.yaml"
    path.write_text("rate: 2e-4\ntasks: [1e3x]\n")
    cfg = load_config(Stage, path, ["inner.path=1e-3-run"])
    assert cfg.rate == pytest.approx(2e-4) and cfg.tasks == ["1e3x"]
    assert cfg.inner.path == "1e-3-run"
    assert load_config(Stage, None, ["rate=-1E-3"]).rate == pytest.approx(-1e-3)
