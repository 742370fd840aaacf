"""Argument models of the query tools and actions: one pydantic model per tool.

The field descriptions are written for a small model reading the exported JSON schema: short,
concrete, with an example. Models forbid unknown arguments, so a misspelt argument comes back as
an error naming the arguments the tool takes. Validation is pydantic's lax mode: ``"5"`` is
accepted for an integer index (the schema leaves no doubt what it means), ``True`` is not.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from pipeline.tools.keys import EXAMPLE_KEYS, normalize_key

INDEX_DESCRIPTION = "Element index, the number in [brackets] in a page listing or query result."


class ToolArgs(BaseModel):
    """Base of every argument model: unknown arguments are errors, values are validated."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_integers(cls, value: object, info) -> object:
        """Reject ``true``/``false`` where an integer is expected (pydantic would read 1/0)."""
        if isinstance(value, bool) and cls.model_fields[info.field_name].annotation is int:
            raise ValueError("expected an integer, got a boolean")
        return value


class GetPageSummaryArgs(ToolArgs):
    """No arguments."""


class QueryElementsArgs(ToolArgs):
    """Search criteria; give at least one. Structural criteria are hard filters."""

    text: str | None = Field(
        default=None,
        description='Words to look for in the element text, label or attributes, e.g. "add to cart".',
    )
    role: str | None = Field(
        default=None,
        description="Element role: button, link, textbox, checkbox, radio, combobox, option, "
        "tab, menuitem, heading, img.",
    )
    name: str | None = Field(
        default=None,
        description='Accessible name (aria-label, alt text or label), e.g. "Search".',
    )
    attributes: dict[str, str] | None = Field(
        default=None,
        description='HTML attribute values to match, e.g. {"type": "email"}.',
    )
    within_landmark: str | None = Field(
        default=None,
        description='Only inside this landmark, as the page summary names it: MAIN, NAV, HEADER, '
        'ASIDE, FOOTER, SEARCH, FORM, REGION, or with its name, e.g. "NAV:Primary".',
    )
    near_heading: str | None = Field(
        default=None,
        description='Only in the section under the heading with this text, e.g. "Checkout".',
    )
    keyword_weights: dict[str, float] | None = Field(
        default=None,
        description='Keywords with weights, higher is more important, e.g. '
        '{"add to cart": 40, "buy": 20}.',
    )
    max_results: int = Field(default=20, ge=1, le=100, description="Most results to return.")

    @model_validator(mode="after")
    def _some_criterion(self) -> QueryElementsArgs:
        criteria = ("text", "role", "name", "attributes", "within_landmark", "near_heading",
                    "keyword_weights")
        if all(getattr(self, c) in (None, "", {}) for c in criteria):
            raise ValueError(
                "give at least one of text, role, name, attributes, within_landmark, "
                'near_heading, keyword_weights, e.g. {"text": "add to cart"}'
            )
        return self


class GetRegionArgs(ToolArgs):
    """A landmark region, optionally narrowed to the section under one heading."""

    landmark: str = Field(
        description='Landmark from the page summary, e.g. "MAIN", "NAV:Primary", "SEARCH".'
    )
    heading_scope: str | None = Field(
        default=None,
        description="Only the section under the heading with this text.",
    )
    content_type: Literal["interactive", "text", "full"] = Field(
        default="interactive",
        description='"interactive": elements with indices to act on; "text": readable text '
        'only, to read prices or articles; "full": everything with its hierarchy.',
    )


class GetElementDetailsArgs(ToolArgs):
    """One element, by index."""

    index: int = Field(ge=1, description=INDEX_DESCRIPTION)


class ClickArgs(ToolArgs):
    """Click an element."""

    index: int = Field(ge=1, description=INDEX_DESCRIPTION)


class TypeArgs(ToolArgs):
    """Type into an input (its old value is cleared first)."""

    index: int = Field(ge=1, description=INDEX_DESCRIPTION)
    text: str = Field(description="Text to type.")


class SelectArgs(ToolArgs):
    """Choose an option of a select element."""

    index: int = Field(ge=1, description=INDEX_DESCRIPTION)
    option: str = Field(description="Option to choose, by its visible text or value.")


class PressArgs(ToolArgs):
    """Press a key on the focused element."""

    key: str = Field(description=f"Key name: {EXAMPLE_KEYS}.")

    @field_validator("key")
    @classmethod
    def _playwright_key(cls, key: str) -> str:
        return normalize_key(key)


class ScrollArgs(ToolArgs):
    """Scroll the page, or one scrollable element, in a direction."""

    direction: Literal["up", "down", "left", "right"] = Field(
        description='Which way to scroll: "up", "down", "left" or "right".')
    index: int | None = Field(
        default=None, ge=1,
        description="Element index of a scrollable box (a list, a text area); leave it out to "
        "scroll the whole page.")
    amount: Literal["page", "end"] = Field(
        default="page",
        description='"page": about one screen of the box; "end": all the way to its edge.')

    @field_validator("direction", "amount", mode="before")
    @classmethod
    def _lower(cls, word: object) -> object:
        return word.strip().lower() if isinstance(word, str) else word


class HoverArgs(ToolArgs):
    """Move the mouse over an element (opens hover menus and tooltips)."""

    index: int = Field(ge=1, description=INDEX_DESCRIPTION)


class DragArgs(ToolArgs):
    """Drag an element onto another element, or by an offset in pixels."""

    index: int = Field(ge=1, description="Index of the element to drag.")
    to_index: int | None = Field(
        default=None, ge=1, description="Index of the element to drop it on.")
    dx: int | None = Field(
        default=None, description="Pixels to move right (negative: left), instead of to_index.")
    dy: int | None = Field(
        default=None, description="Pixels to move down (negative: up), instead of to_index.")

    @model_validator(mode="after")
    def _one_destination(self) -> DragArgs:
        offset = self.dx is not None or self.dy is not None
        if (self.to_index is None) == (not offset):
            raise ValueError('give either to_index or an offset dx/dy, e.g. {"index": 3, '
                             '"to_index": 5} or {"index": 3, "dx": 40, "dy": 0}')
        if self.to_index == self.index:
            raise ValueError("to_index must differ from index (the element cannot be dropped "
                             "on itself)")
        return self


class ClearArgs(ToolArgs):
    """Empty a text field."""

    index: int = Field(ge=1, description=INDEX_DESCRIPTION)


class SelectTextArgs(ToolArgs):
    """Select a passage of the page's text with the mouse."""

    text: str = Field(min_length=1,
                      description="The passage to select, word for word as the page shows it.")

    @field_validator("text", mode="before")
    @classmethod
    def _stripped(cls, text: object) -> object:
        return text.strip() if isinstance(text, str) else text


class DoneArgs(ToolArgs):
    """Finish the task."""

    answer: str = Field(
        default="",
        description="The answer when the task asks for information, otherwise empty.",
    )

