"""Sweep stage-1 SFT steps for the tiny CPU pipeline's student (measurement, not part of the pipeline).

Loads a stage-0 checkpoint and one stage-1 fix row (prompt = the failure chat, completion = the teacher's
fix), trains on it (and on the rows of ``--also``, one row a step in turn) with completion-only loss (AdamW,
constant rate, batch 1: the pipeline's SFT settings) and, at each of ``--steps``, samples (a) the direct
answer to the row's first two messages and (b) the answer after the whole failure chat, at the evaluation's
sampling (temperature 0.7, top_p 0.8). Each answer is parsed with the harness's LLM4Cov rule and classed by
the module it instantiates as ``dut`` (``:EXACT``: the fix's testbench, byte for byte; a near copy does not
build). ``--own`` also samples after each failing direct answer (the trained chat's feedback, module renamed).
What it measured for pipeline_tiny_cpu.yaml: docs/trainers.md, "CPU smoke".

    R=runs/pipeline/tiny-cpu
    python scripts/tiny_stage1_sweep.py --init $R/07-stage0-sft/out/final --lr 1.5e-3 --steps 240,300,360 \
        --row <(grep codev_1002 $R/10-stage1-synth/out/rows.jsonl | head -1) \
        --also <(grep -v codev_1002 $R/10-stage1-synth/out/rows.jsonl)
"""

from __future__ import annotations

import argparse
import json
import re

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from ecov.harness.parse import parse_llm4cov


def _ids(tok, msgs, gen):
    ids = tok.apply_chat_template(msgs, add_generation_prompt=gen, return_tensors="pt")
    return ids["input_ids"] if hasattr(ids, "keys") else ids


def _example(tok, prompt, completion):
    p_ids = _ids(tok, prompt, True)
    full = _ids(tok, prompt + completion, False)
    labels = full.clone()
    labels[:, :p_ids.shape[1]] = -100
    return full, labels


def classify(tok, model, msgs, n, max_new, seed0, target, want=None):
    ids = _ids(tok, msgs, True)
    out = []
    for i in range(n):
        torch.manual_seed(seed0 + i)
        with torch.no_grad():
            g = model.generate(ids, max_new_tokens=max_new, do_sample=True, temperature=0.7, top_p=0.8,
                               pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id)
        new = g[0, ids.shape[1]:]
        cut = len(new) >= max_new and int(new[-1]) != tok.eos_token_id
        text = tok.decode(new, skip_special_tokens=True)
        p = parse_llm4cov(text, "length" if cut else "")
        if p.testbench is None:
            out.append(("parse_err", text))
            continue
        m = re.search(r"^\s*(\w+)\s+dut\s*\(", p.testbench, re.M)
        mod = m.group(1) if m else "?"
        kind = "OK:" + mod if mod == target else "other:" + mod
        out.append((kind + (":EXACT" if want is not None and p.testbench == want else ""), text))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--init", required=True)
    ap.add_argument("--row", required=True)
    ap.add_argument("--also", default="", help="rows JSONL trained on beside the row (e.g. the stage's direct rows)")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--steps", default="15,30,45,60,80,100,130,160")
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--max-new", type=int, default=320)
    ap.add_argument("--target", default="small_alu")
    ap.add_argument("--own", action="store_true", help="also sample after each failing direct answer")
    a = ap.parse_args()
    torch.set_num_threads(1)
    tok = AutoTokenizer.from_pretrained(a.init)
    model = AutoModelForCausalLM.from_pretrained(a.init, dtype=torch.float32)
    row = json.loads(open(a.row).readline())
    prompt, completion = row["prompt"], row["completion"]
    if isinstance(completion, str):
        completion = [{"role": "assistant", "content": completion}]
    batches = [_example(tok, prompt, completion)]
    for line in open(a.also) if a.also else []:
        r = json.loads(line)
        c = r["completion"] if isinstance(r["completion"], list) else [{"role": "assistant", "content": r["completion"]}]
        batches.append(_example(tok, r["prompt"], c))
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.0)
    checks = sorted(int(s) for s in a.steps.split(","))
    step = 0
    for target_step in checks:
        model.train()
        while step < target_step:
            full, labels = batches[step % len(batches)]
            loss = model(input_ids=full, labels=labels).loss
            loss.backward()
            opt.step()
            opt.zero_grad()
            step += 1
        model.eval()
        d = classify(tok, model, prompt[:2], a.n, a.max_new, 100, a.target)
        r = classify(tok, model, prompt, a.n, a.max_new, 200, a.target, parse_llm4cov(completion[0]["content"]).testbench)
        # after the student's OWN failing direct answers (the feedback of the trained chat, module renamed:
        # an approximation of what Verilator would say)
        own = []
        for j, (kind, text) in enumerate(d if a.own else []):
            if kind.startswith("other:"):
                mod = kind.split(":", 1)[1]
                fb = prompt[3]["content"].replace("sipo8", mod) if mod != "?" else prompt[3]["content"]
                chat = prompt[:2] + [{"role": "assistant", "content": text}, {"role": "user", "content": fb}]
                own.append((kind, [k for k, _ in classify(tok, model, chat, a.n, a.max_new, 300 + 10 * j, a.target)]))
        print(json.dumps({"steps": step, "loss": round(float(loss.detach()), 4), "direct": [k for k, _ in d],
                          "after_failure": [k for k, _ in r], "after_own": own}), flush=True)


if __name__ == "__main__":
    main()
