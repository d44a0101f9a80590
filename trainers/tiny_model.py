"""A tiny random causal LM built on the spot, for CPU smoke runs of the training chain.

Two layers, width 32, a byte-level BPE tokenizer trained on the given texts, and a ChatML-style chat
template: small enough to train and serve on a laptop CPU in seconds. Its answers are noise; it exists
so that serving, evaluation, SFT and checkpoint hand-over run for real without a GPU or a download.
"""

from __future__ import annotations

from pathlib import Path

SPECIALS = ["<|pad|>", "<|im_start|>", "<|im_end|>"]
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def build_tiny_model(path: Path, texts: list[str], vocab_size: int = 600, seed: int = 0) -> Path:
    """Write a tiny Llama with random weights and its tokenizer to ``path``; returns ``path``."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(texts, trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=SPECIALS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<|pad|>", eos_token="<|im_end|>")
    fast.chat_template = CHAT_TEMPLATE
    path = Path(path)
    fast.save_pretrained(path)
    config = LlamaConfig(vocab_size=len(fast), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=16384,
                         pad_token_id=fast.pad_token_id, eos_token_id=fast.eos_token_id, bos_token_id=None,
                         tie_word_embeddings=True)
    torch.manual_seed(seed)
    LlamaForCausalLM(config).save_pretrained(path)
    return path
