"""Hostile inputs, generated: the reliability corpus the tests and the benchmarks share.

    text = adversarial_text("<bu_click>{", 1_000_000)   # a model output: a pattern up to 1 MB
    page_state_corpus()    # name -> bytes of a file named .json.gz that is no good page state
    html_corpus()          # name -> (HTML bytes, texts the page must show, or None: refused)
    task_file_corpus()     # name -> bytes of a Mind2Web task file that is not one
    config_corpus()        # name -> bytes of a --config that is not YAML text
    BAD_OVERRIDES          # key=value overrides whose value is not YAML

``PATTERNS`` holds the model-output patterns ``codec_benchmark.py`` and the tests run: unclosed
arguments after every token, tokens without arguments, unterminated and escaped strings, bare
brackets, and JSON calls cut off in the middle.
"""

from __future__ import annotations

import gzip
import json
import random

PATTERNS: tuple[str, ...] = (
    "<bu_click>{",
    "<bu_summary>",
    "<bu_summary>{}<bu_end>",
    '<bu_click>{"index": 1}<bu_end>',
    '<bu_click>{\\"',
    '<bu_click>{"text": "',
    '<bu_type>{"text": "<bu_end>',
    "<bu_end>",
    "{",
    "[",
    "{}",
    '"',
    "'",
    "\\",
    "<",
    "{'a': '",
    '{"name": "click", "arguments": {"index": ',
    '{"name": "x"}',
)


def adversarial_text(pattern: str, size: int) -> str:
    """``pattern`` repeated to ``size`` characters (cut at the end)."""
    return (pattern * (size // len(pattern) + 1))[:size]


BAD_OVERRIDES = ("input=[data/x", "lora=[", "seed=[", "limit={", "output_dir=: x: y")


def page_state_corpus() -> dict[str, bytes]:
    """Files named .json.gz that are not page states, and states with fields of a wrong type."""
    good = {"schema_version": 1, "url": "about:blank", "title": "",
            "nodes": [{"id": 0, "parent": None, "kind": "element", "tag": "#document"}]}
    noise = random.Random(14).randbytes

    def state(**changes) -> bytes:
        return gzip.compress(json.dumps(good | changes).encode())

    def node(**changes) -> bytes:
        return state(nodes=[good["nodes"][0] | changes])

    return {
        "binary": gzip.compress(noise(512)),
        "latin1": gzip.compress('{"url": "caf\xe9"}'.encode("latin-1")),
        "list": gzip.compress(b"[1, 2]"),
        "string": gzip.compress(b'"page"'),
        "null": gzip.compress(b"null"),
        "truncated_gzip": gzip.compress(json.dumps(good).encode())[:30],
        "bad_crc": gzip.compress(json.dumps(good).encode())[:-8] + b"\0" * 8,
        "not_gzip_not_json": b"\x00\x01\x02 hello",
        "empty": b"",
        "deep_json": gzip.compress(b"[" * 100_000 + b"]" * 100_000),
        "nodes_not_list": state(nodes="x"),
        "node_not_dict": state(nodes=[5]),
        "node_unknown_key": node(colour="red"),
        "node_bad_kind": node(kind="comment"),
        "node_tag_int": node(tag=5),
        "node_attributes_list": node(attributes=["a"]),
        "node_parent_str": node(parent="0"),
        "node_bounds_int": node(bounds=3),
        "meta_list": state(meta=[1]),
        "title_dict": state(title={}),
        "frames_bad": state(frames=[7]),
        "schema_2": state(schema_version=2),
        "no_nodes": state(nodes=[]),
        "text_root": node(kind="text"),
    }


def nested_html(depth: int, tag: str = "div") -> str:
    """A button, ``depth`` nested elements around a button, a button after (issue 14's case)."""
    return ("<html><body><button>top</button>" + f"<{tag}>" * depth + "<button>deep</button>"
            + f"</{tag}>" * depth + "<button>after</button></body></html>")


def html_corpus() -> dict[str, tuple[bytes, tuple[str, ...] | None]]:
    """name -> (file bytes, texts the rendering must show; None when a refusal is expected)."""
    three = ("top", "deep", "after")
    return {
        "nested_300": (nested_html(300).encode(), three),
        "nested_3000": (nested_html(3000).encode(), three),
        "nested_20000_spans": (nested_html(20_000, "span").encode(), three),
        "siblings_200k": (("<body>" + "<span>x</span>" * 200_000).encode(), None),
        "invalid_utf8": (b"<p>caf\xe9 \xff\xfe</p>", None),
        "nul_bytes": (b"<p>\x00\x00 nul</p>", None),
        "binary": (random.Random(14).randbytes(4096), None),
        "empty": (b"", None),
        "no_tags": (b"just text, no markup", None),
        "unclosed_everything": (b"<div><p><b><i><a href=x>link" * 500, ("link",)),
        "stray_end_tags": (b"</div></p></b>" * 5000 + b"<button>ok</button>", ("ok",)),
    }


def task_file_corpus() -> dict[str, bytes]:
    """Mind2Web task files (``.json``) that hold no readable task."""
    return {
        "not_json": b"{ this is not json",
        "scalar": b"42",
        "list_of_ints": b"[1, 2, 3]",
        "empty": b"",
        "binary": random.Random(14).randbytes(2048),
        "task_without_actions": json.dumps([{"annotation_id": "x", "website": "w"}]).encode(),
        "actions_not_list": json.dumps([{"annotation_id": "x", "actions": 5}]).encode(),
    }


def config_corpus() -> dict[str, bytes]:
    """``--config`` files that are not YAML text."""
    return {
        "binary": random.Random(14).randbytes(256) + b"\xff",
        "nul": b"a: b\x00\x01\n",
        "unclosed_list": b"a: [\n",
        "top_level_list": b"- a\n- b\n",
    }
