"""A tiny Llama checkpoint and tokenizer for mindone text generation, and a PyTorch cross-check.

A mindone user loads a Hugging Face folder (``config.json``, ``model.safetensors``, the
tokenizer files) with ``mindone.transformers.AutoModelForCausalLM.from_pretrained`` and calls
``model.generate``. Real checkpoints are gigabytes and come from the hub; this helper writes a
folder of the same form without network, with PyTorch's ``transformers`` (docs/
running_mindspore_code.md, "Text generation with mindone.transformers end to end"):

    python examples/mindone_tiny_llama.py make tiny-llama     # needs torch and transformers
    python -m cellax run examples/mindone_generate.py --model_path tiny-llama --output out.json
    python examples/mindone_tiny_llama.py compare tiny-llama out.json

``make`` trains a BPE tokenizer (``tokenizers``) on a few built-in sentences and
saves it with ``save_pretrained``, then builds a ``LlamaForCausalLM`` of two layers with random
weights (``torch.manual_seed``) and saves it with ``save_pretrained`` (safetensors).
``compare`` runs PyTorch's ``generate`` on the same folder with the settings the generation
script recorded and reports, for each run, whether the token ids equal the script's.
"""

from __future__ import annotations

import argparse
import json
import os

CORPUS = [
    "MindSpore code runs on JAX through cellax.",
    "A small model writes a few words, one token at a time.",
    "The quick brown fox jumps over the lazy dog.",
    "Greedy decoding picks the most likely token; sampling draws one.",
    "Keys and values of earlier tokens stay in the cache.",
]

# Two layers, grouped key/value heads; a wide weight initialisation keeps the logits of a
# random model far apart, so greedy decoding is not decided by rounding
TINY_LLAMA = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "max_position_embeddings": 128,
    "initializer_range": 0.2,
    "tie_word_embeddings": False,
}


def make_tiny_llama(root: str, vocab_size: int = 300, seed: int = 0) -> dict:
    """Write a tokenizer and a random tiny ``LlamaForCausalLM`` into ``root``.

    Args:
        root (str): The folder to write (created if needed).
        vocab_size (int): The largest BPE vocabulary, special tokens included (the built-in
            sentences give 197). Default: ``300``.
        seed (int): The ``torch.manual_seed`` of the weights. Default: ``0``.

    Returns:
        dict, ``{"vocab_size": ..., "parameters": ..., "files": [...]}``.

    Examples:
        >>> import tempfile
        >>> made = make_tiny_llama(tempfile.mkdtemp())  # doctest: +SKIP
        >>> made["vocab_size"], "model.safetensors" in made["files"]  # doctest: +SKIP
        (197, True)
    """
    import torch
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    # sentencepiece-style pieces ("▁quick"), as Llama's tokenizer has: every token decodes
    # to readable text
    tokenizer = Tokenizer(models.BPE(unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.decoder = decoders.Metaspace()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=["<unk>", "<s>", "</s>"], show_progress=False
    )
    tokenizer.train_from_iterator(CORPUS, trainer)
    bos = tokenizer.token_to_id("<s>")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", bos)]
    )
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        unk_token="<unk>",
        bos_token="<s>",
        eos_token="</s>",
        model_input_names=["input_ids", "attention_mask"],
    )
    fast.save_pretrained(root)

    config = transformers.LlamaConfig(
        vocab_size=len(fast),
        bos_token_id=bos,
        eos_token_id=fast.eos_token_id,
        **TINY_LLAMA,
    )
    torch.manual_seed(seed)
    model = transformers.LlamaForCausalLM(config).eval()
    model.save_pretrained(root, safe_serialization=True)
    return {
        "vocab_size": len(fast),
        "parameters": sum(p.numel() for p in model.parameters()),
        "files": sorted(os.listdir(root)),
    }


def generate_with_transformers(model_path: str, run: dict) -> list:
    """Run PyTorch's ``generate`` with the settings of one run the generation script recorded.

    Greedy runs are deterministic; a sampling run draws from PyTorch's own generator, so only
    its greedy twin can match token for token. For sampling this returns the ids of the
    script's tokens that fall outside PyTorch's filtered distribution (``top_k``), step by
    step, given the script's own prefix: an empty list when every draw was allowed.

    Args:
        model_path (str): The folder ``make`` wrote.
        run (dict): One entry of the script's ``--output`` file.

    Returns:
        list, the token ids PyTorch generates (greedy), or the disallowed draws (sampling).

    Examples:
        >>> generate_with_transformers("tiny-llama", run)  # doctest: +SKIP
        [[1, 57, 201, ...]]
    """
    import torch
    import transformers

    tokenizer = transformers.AutoTokenizer.from_pretrained(model_path)
    model = transformers.AutoModelForCausalLM.from_pretrained(model_path).eval()
    encoded = tokenizer(run["prompts"], return_tensors="pt")
    settings = dict(run["settings"])
    with torch.no_grad():
        if not settings.get("do_sample"):
            out = model.generate(**encoded, **settings, pad_token_id=tokenizer.eos_token_id)
            return out.tolist()
        # a sampling run: each drawn token must be allowed by PyTorch's logits processors
        processors = model._get_logits_processor(
            generation_config=transformers.GenerationConfig(**settings),
            input_ids_seq_length=encoded["input_ids"].shape[1],
            encoder_input_ids=encoded["input_ids"],
            prefix_allowed_tokens_fn=None,
            logits_processor=transformers.LogitsProcessorList(),
        )
        bad = []
        for row in run["output_ids"]:
            ids = torch.tensor([row])
            start = encoded["input_ids"].shape[1]
            logits = model(ids).logits
            for position in range(start, ids.shape[1]):
                scores = processors(ids[:, :position], logits[:, position - 1])
                if not torch.isfinite(scores[0, ids[0, position]]):
                    bad.append(int(ids[0, position]))
        return bad


def main(argv: list | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("make", help="write the tokenizer and the random tiny Llama")
    make.add_argument("root")
    make.add_argument("--seed", type=int, default=0)
    compare = commands.add_parser("compare", help="check the script's token ids against PyTorch")
    compare.add_argument("model_path")
    compare.add_argument("output", help="the generation script's --output file")
    args = parser.parse_args(argv)
    if args.command == "make":
        made = make_tiny_llama(args.root, seed=args.seed)
        print(
            f"wrote a {made['parameters']}-parameter LlamaForCausalLM and a "
            f"{made['vocab_size']}-token BPE tokenizer to {args.root}: {', '.join(made['files'])}"
        )
        return
    with open(args.output) as file:
        runs = json.load(file)
    for run in runs:
        result = generate_with_transformers(args.model_path, run)
        if run["settings"].get("do_sample"):
            verdict = "every draw allowed" if not result else f"draws outside top_k: {result}"
            print(f"{run['name']}: sampled (PyTorch's generator differs): {verdict}")
        else:
            same = result == run["output_ids"]
            print(f"{run['name']}: token ids equal PyTorch's: {same}")
            if not same:
                print(f"  script:  {run['output_ids']}\n  PyTorch: {result}")


if __name__ == "__main__":
    main()
