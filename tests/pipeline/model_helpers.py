"""The real SmolLM2 code for generation tests: a LoRA-adapted model with the functional tokens,
as training builds it, and agent conversations whose calls extend one another."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import torch

from pipeline.agent.conversation import assistant_message, tool_message
from pipeline.agent.prompts import system_prompt, user_turn
from pipeline.tools import make_call

STEPS = [  # (task, history, page, [(rationale, call, tool result or None for the action)])
    ("Click the \"Submit\" button.", [], "Page: \"Click Button\"\nElements: 3 (3 buttons)", [
        ("Searching for the Submit button.", make_call("query_elements", text="submit"),
         "1 element matches text=\"submit\":\n[2]<button>Submit</button>"),
        ("Clicking the \"Submit\" button: [2].", make_call("click", index=2), None)]),
    ("Enter \"Kenda\" as the username and log in.", ["[textbox] Username -> TYPE: Kenda"],
     "Page: \"Login User\"\nElements: 3 (2 inputs, 1 button)", [
         ("Listing the text fields.", make_call("query_elements", role="textbox"),
          "2 matches:\n[1]<input id=username />\n[2]<input type=password id=password />"),
         ("Searching for the login button.", make_call("query_elements", text="login"),
          "1 element matches text=\"login\":\n[3]<button>Login</button>"),
         ("Clicking \"Login\": [3].", make_call("click", index=3), None)]),
]


def conversations(step: tuple) -> list[list[dict]]:
    """The prompt of every call of one step: each extends the one before (append-only)."""
    task, history, page, turns = step
    messages = [{"role": "system", "content": system_prompt("query_only")},
                {"role": "user", "content": user_turn(task, history, page)}]
    out = []
    for position, (thinking, call, result) in enumerate(turns):
        out.append([dict(m) for m in messages])
        messages.append(assistant_message(call, thinking, position))
        if result is not None:
            messages.append(tool_message(call.name, result))
    return out


def adapted_model(base_folder: Path) -> tuple[Any, Any]:
    """SmolLM2 with the functional tokens and a LoRA adapter whose weights and token rows are
    nudged off zero (an untrained adapter would leave the base's logits as they are; a random one
    would flatten them into near-ties that any rounding flips)."""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from pipeline.model.functional_tokens import add_functional_tokens
    from pipeline.model.token_rows import use_row_forward

    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(str(base_folder), dtype=torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(str(base_folder))
    new_ids = add_functional_tokens(model, tokenizer)
    config = LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "down_proj"],
                        layers_to_transform=list(range(20, 30)),
                        trainable_token_indices={"embed_tokens": list(new_ids)})
    model = get_peft_model(model, config)
    use_row_forward(model)
    with torch.no_grad():  # each tensor's noise drawn from its own name: a tool joining the
        for name, param in model.named_parameters():  # registry leaves the others' as they were
            if "lora_B" in name or "trainable_tokens_delta" in name:
                rows = torch.Generator().manual_seed(zlib.crc32(name.encode()))
                param.add_(0.02 * torch.randn(param.shape, generator=rows))
    return model.eval(), tokenizer
