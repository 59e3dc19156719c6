"""Text generation with mindone.transformers end to end, against PyTorch's ``transformers``
(issue 34).

``examples/mindone_tiny_llama.py`` writes a random tiny ``LlamaForCausalLM`` with PyTorch's
``save_pretrained`` (safetensors) and a BPE tokenizer trained locally; the user script
``examples/mindone_generate.py`` loads both with mindone's ``AutoModelForCausalLM`` and
``transformers``' ``AutoTokenizer`` and runs ``generate`` (greedy with and without the cache,
sampling twice under one seed) through ``python -m cellax run``. Greedy token ids must equal
PyTorch's ``generate`` on the same folder; sampled tokens must repeat under the seed and lie in
PyTorch's ``top_k``. With ``CELLAX_MINDONE_TRANSFORMERS_EXAMPLES`` naming mindone's
``examples/transformers`` folder, mindone's own ``llama/generate.py`` runs unchanged too
(GRAPH_MODE, ``flash_attention_2``, float16 through ``auto_mixed_precision``).

Needs mindone 0.5.0, torch, ``transformers==4.57.1`` and ``tokenizers`` importable, and
``CELLAX_MINDONE=1`` (a few minutes on CPU), as tests/test_zoo_mindone.py.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
_MISSING = [
    m
    for m in ("mindone", "torch", "transformers", "tokenizers")
    if importlib.util.find_spec(m) is None
]
EXAMPLES = os.environ.get("CELLAX_MINDONE_TRANSFORMERS_EXAMPLES", "")

pytestmark = [
    pytest.mark.skipif(bool(_MISSING), reason=f"not installed: {', '.join(_MISSING)}"),
    pytest.mark.skipif(os.environ.get("CELLAX_MINDONE") != "1", reason="set CELLAX_MINDONE=1"),
    pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]


def _helper():
    spec = importlib.util.spec_from_file_location(
        "mindone_tiny_llama", ROOT / "examples" / "mindone_tiny_llama.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cellax_run(args, cwd, stdin=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-m", "cellax", "run", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    return output


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("mindone_gen") / "tiny-llama"
    _helper().make_tiny_llama(str(path))
    return path


@pytest.fixture(scope="module")
def runs(model_path):
    out = model_path.parent / "out.json"
    script = str(ROOT / "examples" / "mindone_generate.py")
    args = [script, "--model_path", str(model_path), "--max_new_tokens", "8"]
    output = _cellax_run([*args, "--output", str(out)], model_path.parent)
    assert "loaded LlamaForCausalLM: 31200 parameters" in output
    return {run["name"]: run for run in json.loads(out.read_text())}


def test_greedy_matches_pytorch_with_and_without_cache(runs, model_path):
    helper = _helper()
    for name in ("greedy, use_cache=True", "greedy, use_cache=False"):
        run = runs[name]
        assert len(run["output_ids"][0]) == 5 + 8
        assert run["output_ids"] == helper.generate_with_transformers(str(model_path), run), name


def test_sampling_repeats_under_the_seed_within_top_k(runs, model_path):
    first, again = runs["sample, seed 0"], runs["sample, seed 0 again"]
    assert first["output_ids"] == again["output_ids"]
    assert first["output_ids"] != runs["greedy, use_cache=True"]["output_ids"]
    assert _helper().generate_with_transformers(str(model_path), first) == []


@pytest.mark.skipif(
    not os.path.isfile(os.path.join(EXAMPLES, "llama", "generate.py")),
    reason="set CELLAX_MINDONE_TRANSFORMERS_EXAMPLES to mindone's examples/transformers",
)
def test_mindone_llama_generate_script(runs, model_path):
    """mindone's interactive script, unchanged: one prompt on stdin, then ``q``; its defaults
    run GRAPH_MODE, flash_attention_2 and float16, and decode after ``inputs_embeds`` (so the
    script's own slicing drops the first five new tokens)."""
    import transformers

    script = os.path.join(EXAMPLES, "llama", "generate.py")
    output = _cellax_run(
        [script, "--model_path", str(model_path)], model_path.parent, "The quick brown fox\nq\n"
    )
    assert "Generate task done, see you next time!" in output
    result = output.split("=" * 46 + " Result " + "=" * 46)[1].splitlines()[1]
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(model_path))
    greedy = runs["greedy, use_cache=True"]["output_ids"][0]
    # the first 8 new tokens of float32 greedy decoding, less the 5 the script slices off
    expected = tokenizer.decode(greedy[5 + 5 :], skip_special_tokens=True).strip()
    assert result.startswith(expected), (result, expected)
