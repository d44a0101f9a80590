"""The GPU smoke of the training pipeline: run trainers/configs/pipeline_gpu_smoke.yaml, check what it must
show, and (time allowing) measure a Qwen3-4B-shaped SFT step. Run it through scripts/gpu_smoke.sh, which
installs what the machine lacks first; what it proves: docs/trainers.md, "GPU smoke".

    python scripts/gpu_smoke.py [--cpu] [--out DIR] [--budget SECONDS] [--no-4b]

Part 1, the pipeline: every step of the recipe (teacher runs, stages 0-2: synth, SFT through
`accelerate launch` with the shipped FSDP config, serving, evaluation) on a tiny random Qwen3. Then
final/ of each stage is reloaded with transformers on the device and generates, its files are checked
readable, and each SFT's log is checked for FSDP and for warnings the issue named.
Part 2 (skipped when less than --reserve-4b seconds remain): the same `accelerate launch ... sft` on a
random Qwen3 of the 4B student's shape (36 layers, width 2560, 32/8 heads of 128, FFN 9728, vocabulary
151,936; built on the device, nothing downloaded) at --tokens tokens a row: seconds per optimizer step,
tokens per second, peak GPU memory, the time to write final/.
--cpu: the same on a CPU with tiny sizes (accelerate with --cpu; part 2 with a 2-layer model), to test
the script itself. Results: OUT/gpu_smoke.json, OUT/report.txt, OUT/pipeline.log.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "trainers" / "configs" / "pipeline_gpu_smoke.yaml"
ACCELERATE = ROOT / "trainers" / "configs" / "accelerate_fsdp.yaml"
QWEN3_4B = {"hidden_size": 2560, "layers": 36, "heads": 32, "kv_heads": 8, "head_dim": 128,
            "intermediate_size": 9728, "vocab": 151936}
ECOV_TRAIN = [sys.executable, "-m", "ecov.trainers.cli"]  # this interpreter's ECov, whatever PATH holds
T0 = time.monotonic()


def say(report: list[str], line: str) -> None:
    line = f"[{time.monotonic() - T0:6.1f} s] {line}"
    print(line, flush=True)
    report.append(line)


def smoke_config(out: Path, cpu: bool, vllm: bool, port: int) -> Path:
    """pipeline_gpu_smoke.yaml with its work folder under OUT and, on a CPU, the sizes of the CPU run."""
    cfg = {"extends": str(CONFIG), "workdir": str(out / "work")}
    cfg["student_serve"] = {"port": port}
    if vllm:  # the 4B run serves with vLLM: so does the smoke where it is installed
        cfg["student_serve"].update(kind="vllm", args=["--max-model-len", "8192", "--gpu-memory-utilization", "0.3",
                                                       "--enforce-eager"])
    if cpu:
        cfg.update(cpu_threads=1, min_free_gb=1)
        cfg["stages"] = {f"stage{s}": {"overrides": {"sft": {"bf16": False, "gradient_checkpointing": False}}}
                         for s in (0, 1, 2)}
        cfg["sft"] = {"accelerate_config": str(cpu_accelerate(out))}
    path = out / "pipeline_gpu_smoke.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return path


def cpu_accelerate(out: Path) -> Path:
    """The shipped accelerate config with FSDP off and the CPU on: accelerate cannot run FSDP on a CPU, so
    a CPU run tests the launcher and the rest of the path, not the wrapping."""
    acc = yaml.safe_load(ACCELERATE.read_text())
    acc.update(distributed_type="NO", use_cpu=True, mixed_precision="no", num_processes=1)
    acc.pop("fsdp_config", None)
    path = out / "accelerate_cpu.yaml"
    path.write_text(yaml.safe_dump(acc, sort_keys=False))
    return path


def run_pipeline(cfg: Path, out: Path, report: list[str], timeout: float, cpu: bool) -> dict:
    env = {**os.environ}
    chk = subprocess.run([*ECOV_TRAIN, "pipeline", "--config", str(cfg), "--check"], capture_output=True,
                         text=True, env=env, cwd=ROOT)
    (out / "preflight.txt").write_text(chk.stdout + chk.stderr)
    say(report, f"preflight: exit {chk.returncode} ({chk.stdout.count('PROBLEM')} problems)")
    if chk.returncode != 0:
        say(report, chk.stdout[-2000:])
        return {"ok": False, "preflight": chk.stdout}
    with open(out / "pipeline.log", "w") as log:
        driver = subprocess.Popen([*ECOV_TRAIN, "pipeline", "--config", str(cfg)], stdout=subprocess.DEVNULL,
                                  stderr=log, text=True, env=env, cwd=ROOT)
        try:
            rc = driver.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            driver.terminate()  # SIGTERM: the driver stops its step and its servers (the GPU is freed)
            try:
                driver.wait(timeout=90)
            except subprocess.TimeoutExpired:
                driver.kill()
                driver.wait()
            say(report, f"pipeline: stopped after {timeout:.0f} s (see pipeline.log)")
            return {"ok": False, "timeout": timeout}
    say(report, f"pipeline: exit {rc}")
    return {"ok": rc == 0}


def check_pipeline(work: Path, report: list[str], cpu: bool) -> dict:
    """What the run shows: every step done, rows and SFT at every stage, FSDP in the SFT logs, final/
    reloadable and readable, the right checkpoint served at every step."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    done = {p.parent.name: json.loads(p.read_text()) for p in sorted(work.glob("*/done.json"))}
    out: dict = {"steps": {k: {x: v.get(x) for x in ("summary", "seconds")} for k, v in done.items()}}
    for name, d in done.items():
        say(report, f"{name}: {d.get('summary', '')} ({d.get('seconds')} s)")
    device = "cpu" if cpu else "cuda"
    for name, d in done.items():
        if not name.endswith("-sft") or d.get("skipped"):
            continue
        summ = json.loads((Path(d["checkpoint"]).parent / "train_summary.json").read_text())
        log = (work / name / "log.txt").read_text(errors="replace")
        final = Path(d["checkpoint"])
        modes = {f.name: oct(stat.S_IMODE(f.stat().st_mode)) for f in final.iterdir() if f.is_file()}
        tok = AutoTokenizer.from_pretrained(final)
        model = AutoModelForCausalLM.from_pretrained(final, dtype=torch.bfloat16 if device == "cuda" else None)
        model.to(device).eval()
        synth = next(v for k, v in done.items() if k.endswith(name.split("-", 1)[1].replace("-sft", "-synth")))
        rows = [json.loads(line) for line in open(synth["rows_path"])]
        ids = tok.apply_chat_template(rows[0]["prompt"], add_generation_prompt=True, return_tensors="pt")
        ids = (ids["input_ids"] if hasattr(ids, "keys") else ids).to(device)
        with torch.no_grad():
            gen = model.generate(ids, max_new_tokens=48, do_sample=False, pad_token_id=tok.pad_token_id)
        text = tok.decode(gen[0, ids.shape[1]:], skip_special_tokens=True)
        s = {"rows": summ["rows"], "steps": summ["steps"], "first_loss": d.get("first_loss"),
             "final_loss": summ.get("final_loss"), "device": summ.get("device"), "processes": summ.get("processes"),
             "distributed": summ.get("distributed"), "train_seconds": summ.get("train_seconds"),
             "save_seconds": summ.get("save_seconds"), "peak_gpu_gib": summ.get("peak_gpu_gib"),
             "file_modes": modes, "reloaded_on": device, "generated": text[:120],
             "destroy_process_group_warning": "destroy_process_group" in log,
             "fsdp_in_log": "FSDP" in log or "fsdp" in log}
        out[name] = s
        say(report, f"{name}: {s['rows']} rows, {s['steps']} steps, loss {s['first_loss']} -> {s['final_loss']}, "
                    f"{s['distributed']} x{s['processes']} on {s['device']}, train {s['train_seconds']} s, save "
                    f"{s['save_seconds']} s, peak {s['peak_gpu_gib']} GiB; final/ modes {sorted(set(modes.values()))}; "
                    f"reloaded on {device}, generates {text[:60]!r}; destroy_process_group warning: "
                    f"{s['destroy_process_group_warning']}")
    for name, d in done.items():
        if d.get("served"):
            say(report, f"{name}: served {d['served']} = {d['checkpoint']}")
    out["served"] = {k: v.get("served") for k, v in done.items() if v.get("served")}
    return out


def build_4b(path: Path, tok_dir: Path, cpu: bool) -> None:
    """A random Qwen3 of the 4B student's shape (bf16 on disk, as a hub checkpoint), with the tiny
    tokenizer: the rows' tokens index the real vocabulary's first ids, the logits span all 151,936."""
    import torch
    from transformers import AutoTokenizer, Qwen3Config, Qwen3ForCausalLM

    s = dict(QWEN3_4B)
    if cpu:
        s.update(hidden_size=256, layers=2, heads=4, kv_heads=2, head_dim=64, intermediate_size=512)
    tok = AutoTokenizer.from_pretrained(tok_dir)
    config = Qwen3Config(vocab_size=s["vocab"], hidden_size=s["hidden_size"], intermediate_size=s["intermediate_size"],
                         num_hidden_layers=s["layers"], num_attention_heads=s["heads"],
                         num_key_value_heads=s["kv_heads"], head_dim=s["head_dim"], max_position_embeddings=65536,
                         tie_word_embeddings=True, pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id,
                         bos_token_id=None, dtype="bfloat16")
    with torch.device("cpu" if cpu else "cuda"):
        torch.manual_seed(0)
        model = Qwen3ForCausalLM(config).to(torch.bfloat16)
    model.save_pretrained(path)
    tok.save_pretrained(path)
    del model
    if not cpu:
        torch.cuda.empty_cache()


def part_4b(out: Path, work: Path, report: list[str], tokens: int, steps: int, cpu: bool, timeout: float,
            scratch: Path) -> dict:
    """The 8 GB checkpoints go to SCRATCH (the work folder's parent), never to OUT, which comes back."""
    from transformers import AutoTokenizer

    base = scratch / "qwen3-4b-shaped"
    tok_dir = work / "05-tiny-model" / "model"
    t = time.monotonic()
    build_4b(base, tok_dir, cpu)
    say(report, f"4B-shaped: built and written in {time.monotonic() - t:.1f} s")
    tok = AutoTokenizer.from_pretrained(tok_dir)
    # A row of `tokens` tokens: a prompt of random hex words (byte-level pieces), answered by a testbench.
    rows0 = [json.loads(line) for line in open(work / "06-stage0-synth" / "out" / "rows.jsonl")]
    rng = random.Random(0)
    text = ""
    while len(tok(text)["input_ids"]) < tokens:
        text += " ".join(f"{rng.getrandbits(32):08x}" for _ in range(max(64, tokens // 8))) + "\n"
    text = tok.decode(tok(text)["input_ids"][:tokens - 64])
    row = {**rows0[0], "prompt": [{"role": "user", "content": text}]}
    rows = out / "rows_4b.jsonl"
    rows.write_text("".join(json.dumps(row) + "\n" for _ in range(steps)))
    stage = yaml.safe_load((work / "07-stage0-sft" / "stage0.yaml").read_text())
    stage["output_dir"] = str(scratch / "sft-4b")
    stage["student"] = {"base": str(base), "init": ""}
    stage["sft"].update(max_steps=steps, effective_batch_size=1, max_length=0, bf16=not cpu,
                        gradient_checkpointing=True, model_dtype="auto", learning_rate=1e-5, warmup_ratio=0.0)
    cfg = out / "stage_4b.yaml"
    cfg.write_text(yaml.safe_dump(stage, sort_keys=False))
    acc = cpu_accelerate(out) if cpu else ACCELERATE
    cmd = [sys.executable, "-m", "accelerate.commands.launch", "--config_file", str(acc), "--num_processes", "1",
           "-m", "ecov.trainers.cli", "sft", "--config", str(cfg), "--rows", str(rows)]
    t = time.monotonic()
    with open(out / "sft_4b.log", "w") as log:
        try:
            rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            say(report, f"4B-shaped: SFT stopped after {timeout:.0f} s (see sft_4b.log)")
            return {"ok": False}
    if rc != 0:
        say(report, f"4B-shaped: SFT exited {rc} (see sft_4b.log)")
        return {"ok": False}
    for name in ("train_summary.json", "train_log.jsonl"):
        shutil.copy(scratch / "sft-4b" / name, out / f"sft_4b_{name}")
    summ = json.loads((out / "sft_4b_train_summary.json").read_text())
    log = [json.loads(line) for line in open(out / "sft_4b_train_log.jsonl")]
    times = [r["elapsed"] for r in log if "elapsed" in r]
    per_step = (times[-1] - times[0]) / (len(times) - 1) if len(times) > 1 else summ["train_seconds"]
    n_tokens = summ["max_length"]
    res = {"ok": True, "parameters_b": round(summ.get("parameters", 0) / 1e9, 3), "tokens_per_row": n_tokens,
           "steps": summ["steps"], "seconds_per_step": round(per_step, 2),
           "tokens_per_second": round(n_tokens / per_step) if per_step else None,
           "peak_gpu_gib": summ["peak_gpu_gib"], "save_seconds": summ["save_seconds"],
           "distributed": summ.get("distributed"), "wall_seconds": round(time.monotonic() - t, 1)}
    say(report, f"4B-shaped: {res['parameters_b']} B parameters, {n_tokens} tokens a row: {res['seconds_per_step']} s "
                f"per optimizer step (after the first), {res['tokens_per_second']} tokens/s, peak "
                f"{res['peak_gpu_gib']} GiB, final/ written in {res['save_seconds']} s ({res['distributed']})")
    shutil.rmtree(base, ignore_errors=True)
    shutil.rmtree(scratch / "sft-4b" / "final", ignore_errors=True)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cpu", action="store_true", help="run on the CPU with tiny sizes (tests the script)")
    ap.add_argument("--out", type=Path, default=Path(os.environ.get("OUT") or ROOT / "runs" / "gpu-smoke"))
    ap.add_argument("--work", type=Path, default=None,
                    help="work folder: checkpoints, 8 GB in part 2 (default: /tmp/ecov-smoke where $OUT is set, else OUT)")
    ap.add_argument("--budget", type=float, default=480.0, help="seconds for the whole script (unpacking and installing come before)")
    ap.add_argument("--reserve-4b", type=float, default=170.0, help="seconds part 2 needs, else it is skipped")
    ap.add_argument("--no-4b", action="store_true")
    ap.add_argument("--tokens", type=int, default=44746, help="part 2: tokens a row (the issue's figure)")
    ap.add_argument("--steps-4b", type=int, default=3)
    ap.add_argument("--port", type=int, default=8765)
    a = ap.parse_args()
    out = a.out
    out.mkdir(parents=True, exist_ok=True)
    work_root = a.work or (Path("/tmp/ecov-smoke") if os.environ.get("OUT") else out)
    work_root.mkdir(parents=True, exist_ok=True)
    report: list[str] = []
    vllm = bool(shutil.which("vllm")) and not a.cpu
    say(report, f"python {sys.version.split()[0]}, {'CPU' if a.cpu else 'GPU'} run, vLLM "
                f"{'installed: serving with it' if vllm else 'not installed: serving with ecov.trainers.tiny_server'}")
    if not a.cpu:
        import torch

        say(report, f"torch {torch.__version__}, {torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'no GPU'}")
    result: dict = {"cpu": a.cpu, "vllm": vllm}
    cfg = smoke_config(work_root, a.cpu, vllm, a.port)
    reserve = 0 if a.no_4b else a.reserve_4b
    result["pipeline"] = run_pipeline(cfg, out, report, max(60.0, a.budget - (time.monotonic() - T0) - reserve),
                                      a.cpu)
    work = work_root / "work"
    if result["pipeline"].get("ok"):
        result["checks"] = check_pipeline(work, report, a.cpu)
    left = a.budget - (time.monotonic() - T0)
    # Part 2 needs only the tokenizer, stage 0's rows and its stage config: a pipeline cut off later still
    # leaves the 4B figures their time.
    if a.no_4b or not (work / "07-stage0-sft" / "stage0.yaml").exists():
        say(report, "4B-shaped: not run")
    elif left < a.reserve_4b * (0.3 if a.cpu else 1.0):
        say(report, f"4B-shaped: skipped, {left:.0f} s left")
    else:
        result["qwen3_4b_shaped"] = part_4b(out, work, report, a.tokens if not a.cpu else 2000, a.steps_4b,
                                            a.cpu, left - 10, work_root)
    result["seconds"] = round(time.monotonic() - T0, 1)
    (out / "gpu_smoke.json").write_text(json.dumps(result, indent=2, default=str))
    (out / "report.txt").write_text("\n".join(report) + "\n")
    ok = result["pipeline"].get("ok") and result.get("qwen3_4b_shaped", {"ok": True}).get("ok", True)
    say(report, f"gpu smoke: {'ok' if ok else 'FAILED'} in {result['seconds']} s; {out / 'gpu_smoke.json'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
