"""Tiny training datasets in datagen's exact format, built from the bundled fixture pages.

Each trajectory: system prompt, user turn (task + query_only observation), an assistant
``query_elements`` call with the engine's real result as a tool turn, then the action on the
first element the query returned. Written with ``datagen.dataset.DatasetWriter``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pipeline
from datagen.dataset import DatasetWriter
from pipeline.agent.execute import execute_offline
from pipeline.agent.observe import observe
from pipeline.agent.prompts import system_prompt, user_turn
from pipeline.distill import distill
from pipeline.html.source import page_from_file
from pipeline.tools import make_call, openai_tools, to_openai

FIXTURES = Path(pipeline.__file__).parent / "fixtures"

# (page, task, query text, action name, action arguments besides the index)
TASKS: list[tuple[str, str, str, str, dict[str, Any]]] = [
    ("forms.html", "Type alice@example.com into the sign-in email", "email address", "type",
     {"text": "alice@example.com"}),
    ("forms.html", "Press the sign in button", "sign in", "click", {}),
    ("shop.html", "Add the first product to the cart", "add to cart", "click", {}),
    ("forms.html", "Enter the password hunter2", "password", "type", {"text": "hunter2"}),
    ("shop.html", "Open the cart", "cart", "click", {}),
    ("forms.html", "Create the account", "create account", "click", {}),
]


def trajectory(page_file: str, task: str, query: str, action: str,
               extra: dict[str, Any]) -> dict[str, Any]:
    page = distill(page_from_file(FIXTURES / page_file))
    call = make_call("query_elements", text=query)
    result = execute_offline(call, page)
    act = make_call(action, index=result.refs[0], **extra)
    messages = [
        {"role": "system", "content": system_prompt("query_only")},
        {"role": "user", "content": user_turn(task, [], observe(page, "query_only").text)},
        {"role": "assistant", "content": f"I search for {query}.",
         "tool_calls": [to_openai(call, 0, string_arguments=False)]},
        {"role": "tool", "name": call.name, "content": result.text},
        {"role": "assistant", "content": f"[{result.refs[0]}] is the match.",
         "tool_calls": [to_openai(act, 1, string_arguments=False)]},
    ]
    return {"step_id": f"{page_file}:{task}", "mode": "query_only", "teacher": "oracle",
            "messages": messages, "tools": openai_tools(), "split": "",
            "website": Path(page_file).stem}


def write_dataset(root: Path, train: int = 6, test: int = 3) -> Path:
    """``train`` records in data/train and ``test`` in data/test (cycling over TASKS)."""
    with DatasetWriter(root) as writer:
        for split, count in (("train", train), ("test", test)):
            for i in range(count):
                record = trajectory(*TASKS[i % len(TASKS)])
                writer.write(f"{split}-{i}", split, {**record, "split": split})
    return root
