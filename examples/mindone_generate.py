"""Text generation with mindone.transformers, as a MindSpore user writes it.

Loads a Hugging Face folder (``config.json``, ``model.safetensors``, tokenizer files) with
mindone's ``AutoModelForCausalLM.from_pretrained`` and the tokenizer with ``transformers``'
``AutoTokenizer``, then runs ``model.generate`` four ways: greedy with and without the key/value
cache, and multinomial sampling (``top_k``, ``temperature``) twice under the same
``ms.set_seed``. Plain MindSpore code: run it on cellax with

    python -m cellax run examples/mindone_generate.py --model_path tiny-llama --output out.json

(``examples/mindone_tiny_llama.py make tiny-llama`` writes such a folder; its ``compare``
checks ``out.json`` against PyTorch's ``transformers``).
"""

import argparse
import json
import time

import mindspore as ms
from transformers import AutoTokenizer

from mindone.transformers import AutoModelForCausalLM

RUNS = [
    ("greedy, use_cache=True", {"do_sample": False, "use_cache": True}),
    ("greedy, use_cache=False", {"do_sample": False, "use_cache": False}),
    ("sample, seed 0", {"do_sample": True, "top_k": 20, "temperature": 0.8, "use_cache": True}),
    (
        "sample, seed 0 again",
        {"do_sample": True, "top_k": 20, "temperature": 0.8, "use_cache": True},
    ),
]


def main():
    parser = argparse.ArgumentParser(description="generate text with mindone.transformers")
    parser.add_argument("--model_path", required=True)
    parser.add_argument("--prompt", default="The quick brown fox")
    parser.add_argument("--max_new_tokens", type=int, default=12)
    parser.add_argument("--output", default=None, help="a JSON file for the token ids")
    args = parser.parse_args()

    ms.set_context(mode=ms.PYNATIVE_MODE)
    tokenizer = AutoTokenizer.from_pretrained(args.model_path)
    model = AutoModelForCausalLM.from_pretrained(args.model_path)
    model.set_train(False)
    print(
        f"loaded {type(model).__name__}: {sum(p.size for p in model.get_parameters())} parameters"
    )

    encoded = tokenizer([args.prompt])
    input_ids = ms.Tensor(encoded.input_ids, ms.int32)
    attention_mask = ms.Tensor(encoded.attention_mask, ms.bool_)
    print(f"prompt {args.prompt!r} -> {input_ids.asnumpy().tolist()[0]}")
    records = []
    for name, settings in RUNS:
        ms.set_seed(0)
        start = time.time()
        settings = dict(settings, max_new_tokens=args.max_new_tokens)
        output_ids = model.generate(input_ids=input_ids, attention_mask=attention_mask, **settings)
        ids = output_ids.asnumpy().tolist()
        text = tokenizer.decode(ids[0][input_ids.shape[1] :], skip_special_tokens=True)
        print(f"{name}: {ids[0]} ({time.time() - start:.1f} s)")
        print(f"  text: {text!r}")
        records.append(
            {"name": name, "prompts": [args.prompt], "settings": settings, "output_ids": ids}
        )
    if args.output:
        with open(args.output, "w") as file:
            json.dump(records, file, indent=1)


if __name__ == "__main__":
    main()
