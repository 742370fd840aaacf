"""DistillOptions: one switch per distill pass plus the few parameters the passes read.

A preset expands to a set of switches: ``DistillOptions.preset("full")`` runs every pass (the
default), ``"minimal"`` only drops noise and hidden nodes and leaves the tree, its attributes and
its nested clickables as they are (useful to compare renderings and to debug a pass).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from pipeline.errors import FormatError

# browser-use's default list (seed 000) plus ``href`` (links; shortened) and ``aria-haspopup`` (a
# menu item that opens a submenu is hovered, one without is clicked); ``for`` is left out: a
# label's text is shown and the control it names carries its own ref.
DEFAULT_INCLUDE_ATTRIBUTES: tuple[str, ...] = (
    "title",
    "type",
    "checked",
    "id",
    "name",
    "role",
    "value",
    "placeholder",
    "alt",
    "aria-label",
    "aria-expanded",
    "aria-haspopup",
    "aria-checked",
    "aria-valuemin",
    "aria-valuemax",
    "aria-valuenow",
    "pattern",
    "min",
    "max",
    "minlength",
    "maxlength",
    "step",
    "data-state",
    "aria-placeholder",
    "required",
    "disabled",
    "invalid",
    "pseudo",
    "href",
)

PASS_NAMES: tuple[str, ...] = (
    "noise",
    "visibility",
    "occlusion",
    "interactivity",
    "propagating_bounds",
    "compound",
    "wrapper_collapse",
    "text_merge",
    "attributes",
)


@dataclass(frozen=True, slots=True)
class DistillOptions:
    """Switches and parameters of ``distill``. ``interactivity`` always runs (refs need tiers)."""

    noise: bool = True
    visibility: bool = True
    occlusion: bool = True
    propagating_bounds: bool = True
    compound: bool = True
    wrapper_collapse: bool = True
    text_merge: bool = True
    attributes: bool = True
    containment_threshold: float = 0.99  # share of a child's box inside a clickable parent
    attribute_value_cap: int = 100  # longer attribute values are cut and end with "…"
    max_first_options: int = 4  # options listed in a <select>'s first_options hint
    occluder_min_opacity: float = 0.8  # effective opacity an element needs to hide what lies below
    include_attributes: tuple[str, ...] = DEFAULT_INCLUDE_ATTRIBUTES

    def __post_init__(self) -> None:
        problems = []
        if not 0.0 < self.containment_threshold <= 1.0:
            problems.append(
                f"containment_threshold={self.containment_threshold}: use a share in (0, 1]"
            )
        if self.attribute_value_cap < 1:
            problems.append(f"attribute_value_cap={self.attribute_value_cap}: use at least 1")
        if self.max_first_options < 0:
            problems.append(f"max_first_options={self.max_first_options}: use 0 or more")
        if problems:
            raise FormatError("DistillOptions: " + "; ".join(problems))

    @classmethod
    def preset(cls, name: str) -> DistillOptions:
        """``"full"`` (every pass) or ``"minimal"`` (noise and visibility only)."""
        if name == "full":
            return cls()
        if name == "minimal":
            off = {f.name: False for f in fields(cls) if f.type in ("bool", bool)}
            return replace(cls(), **{**off, "noise": True, "visibility": True})
        raise FormatError(
            f"DistillOptions.preset({name!r}): unknown preset; use 'full' or 'minimal'"
        )

    def enabled(self, pass_name: str) -> bool:
        """Whether the named pass runs (``interactivity`` always does)."""
        return pass_name == "interactivity" or bool(getattr(self, pass_name))
