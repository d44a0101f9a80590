"""A tiny random causal LM built on the spot, for smoke runs of the training chain (CPU or GPU).

A Qwen3 (the 4B student's architecture: its decoder layer, q/k norms, grouped KV heads, tied embeddings)
of a few hundred thousand parameters, a byte-level BPE tokenizer trained on the given texts (the prompts
and answers it will see, so a testbench takes a few hundred tokens), and a ChatML chat template. Small
enough to train and serve on a laptop CPU in seconds; nothing is downloaded. It learns what the recipe
trains it on: after stage-0 SFT its answers are testbenches that parse, some of which compile.
"""

from __future__ import annotations

from pathlib import Path

SPECIALS = ["<|pad|>", "<|im_start|>", "<|im_end|>"]
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def build_tiny_model(path: Path, texts: list[str], vocab_size: int = 2000, hidden_size: int = 64,
                     layers: int = 2, heads: int = 4, kv_heads: int = 2, intermediate_size: int = 0,
                     seed: int = 0, max_positions: int = 65536) -> Path:
    """Write a tiny Qwen3 with random weights and its tokenizer to ``path``; returns ``path``."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM

    tok = Tokenizer(models.BPE())
    # No regex split: merges may cross spaces, so the repetitive testbench text takes few tokens.
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(texts, trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=SPECIALS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<|pad|>", eos_token="<|im_end|>")
    fast.chat_template = CHAT_TEMPLATE
    path = Path(path)
    fast.save_pretrained(path)
    config = Qwen3Config(vocab_size=len(fast), hidden_size=hidden_size,
                         intermediate_size=intermediate_size or 2 * hidden_size, num_hidden_layers=layers,
                         num_attention_heads=heads, num_key_value_heads=kv_heads, head_dim=hidden_size // heads,
                         max_position_embeddings=max_positions, pad_token_id=fast.pad_token_id,
                         eos_token_id=fast.eos_token_id, bos_token_id=None, tie_word_embeddings=True)
    torch.manual_seed(seed)
    Qwen3ForCausalLM(config).save_pretrained(path)
    return path
