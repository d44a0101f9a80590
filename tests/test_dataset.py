"""Task tables: build -> save -> load gives the same records from parquet, JSONL and the `datasets`
path the hub uses; the embedded suite loads with no download; the hub gives clear errors offline;
publish talks to a real (local) HTTP server."""

from __future__ import annotations

import base64
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import huggingface_hub
import pytest
import yaml
from click.testing import CliRunner

from ecov.harness.benchmark.builders import autoeval, cvdp
from ecov.harness.benchmark.builders.common import SourceError
from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.benchmark.publish import PublishError, publish, render_card
from ecov.harness.benchmark.store import (
    BenchmarkNotFound,
    attach_hub_files,
    dataset_hash,
    features,
    load_benchmark,
    load_folder,
    row_to_task,
    save_tasks,
    task_to_row,
)
from ecov.harness.cli.data import main
from ecov.harness.cli.eval import eval_cmd

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not (SHARED / "verilog-eval").is_dir(), reason="../shared/data is not present")
SLICE = ["Prob001_zero", "Prob004_vector2", "Prob030_popcount255", "Prob131_mt2015_q4"]


def built_tasks():
    tasks = autoeval.build(SHARED / "verilog-eval", only=SLICE).tasks + cvdp.build(SHARED / "cvdp-examples").tasks
    tasks[0].source["note"] = "an extra source key travels too"
    return tasks


@needs_shared
@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_round_trip_same_records(tmp_path, fmt):
    tasks = built_tasks()
    path = save_tasks(tasks, tmp_path, fmt=fmt)
    assert path == tmp_path / "data" / f"test.{fmt}"
    back = load_benchmark(tmp_path)
    assert [t.to_dict() for t in back] == [t.to_dict() for t in tasks]
    assert load_benchmark(path) == back  # the data file itself loads too
    assert dataset_hash(back) == dataset_hash(tasks) == dataset_hash(list(reversed(tasks)))
    # a hub download may hold the split in shards; all of them load, in order
    if fmt == "jsonl":
        lines = path.read_text().splitlines(keepends=True)
        shard_dir = tmp_path / "sharded" / "data"
        shard_dir.mkdir(parents=True)
        (shard_dir / "test-00000-of-00002.jsonl").write_text("".join(lines[:2]))
        (shard_dir / "test-00001-of-00002.jsonl").write_text("".join(lines[2:]))
        assert load_benchmark(tmp_path / "sharded") == back
    back[1].targets[0] = type(back[1].targets[0])("dut", "overall", 12.0)
    assert dataset_hash(back) != dataset_hash(tasks)


@needs_shared
def test_hub_code_path_reads_the_same_records(tmp_path):
    """load_hub goes through datasets.load_dataset and row_to_task; so does this, on the local parquet."""
    import datasets

    tasks = built_tasks()
    save_tasks(tasks, tmp_path)
    ds = datasets.load_dataset("parquet", data_files={"test": str(tmp_path / "data" / "test.parquet")},
                               split="test", cache_dir=str(tmp_path / "cache"))
    assert ds.features == features()
    assert [row_to_task(r).to_dict() for r in ds] == [t.to_dict() for t in tasks]
    assert task_to_row(tasks[0])["source"]["extra"] == json.dumps({"note": "an extra source key travels too"})


@needs_shared
def test_cli_build_then_load_same_records(tmp_path):
    out = tmp_path / "ae"
    r = CliRunner().invoke(main, ["build", "autoeval-ecov", "--source", str(SHARED / "verilog-eval"),
                                  "--out", str(out), "--only", ",".join(SLICE)])
    assert r.exit_code == 0, r.output
    built = autoeval.build(SHARED / "verilog-eval", only=SLICE).tasks
    assert [t.to_dict() for t in load_benchmark(str(out))] == [t.to_dict() for t in built]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["dataset_hash"] == dataset_hash(built) and manifest["count"] == len(SLICE)
    r = CliRunner().invoke(main, ["list", str(out)])
    assert r.exit_code == 0 and "Prob131_mt2015_q4" in r.output and dataset_hash(built) in r.output


def test_embedded_suite_is_the_default():
    tasks = load_benchmark()
    assert tasks and [t.to_dict() for t in tasks] == [t.to_dict() for t in load_benchmark("ecov-embedded")]
    for t in tasks:
        assert t.benchmark == "ecov-embedded" and t.rtl_files and t.targets
        assert [f.name for f in t.spec_files] == ["spec.md"] and [f.name for f in t.reference_tbs] == ["ref_tb.sv"]
        assert all(x.metric in ("line", "branch", "toggle", "expr", "user", "overall") for x in t.targets)


def test_embedded_format_errors(tmp_path):
    (tmp_path / "t1" / "rtl").mkdir(parents=True)
    (tmp_path / "t1" / "task.json").write_text('{"id": "t1", "dut_module": "m", "dut_instance": "u", ')
    with pytest.raises(SourceError, match=r"t1/task\.json: bad JSON"):
        load_suite(tmp_path)
    (tmp_path / "t1" / "task.json").write_text(json.dumps({"id": "t1", "dut_module": "m", "dut_instance": "u",
                                                           "targets": [{"metric": "line", "percent": 90}]}))
    with pytest.raises(SourceError, match=r"t1: no rtl/\*\.sv"):
        load_suite(tmp_path)
    (tmp_path / "t1" / "rtl" / "m.sv").write_text("module m; endmodule\n")
    [t] = load_suite(tmp_path)
    assert t.targets[0].instance == "u" and t.reference_tbs == [] and t.spec_files == []


def test_unknown_name_and_bad_folder(tmp_path, monkeypatch):
    import ecov.harness.benchmark.store

    with pytest.raises(BenchmarkNotFound, match="unknown benchmark 'no-such-bench'"):
        load_benchmark("no-such-bench")
    monkeypatch.setattr(ecov.harness.benchmark.store, "shipped_dir", lambda name: None)  # an install without the folder
    with pytest.raises(BenchmarkNotFound, match=r"cvdp-ecov ships built under benchmarks/cvdp-ecov/.*ecov-data build cvdp-ecov"):
        load_benchmark("cvdp-ecov")
    monkeypatch.undo()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "train.jsonl").write_text("")
    with pytest.raises(FileNotFoundError, match=r"no 'test' split .*found train\.jsonl"):
        load_benchmark(tmp_path)
    r = CliRunner().invoke(main, ["list", "no-such-bench"])
    assert r.exit_code == 2 and "unknown benchmark" in r.output  # a usage error, as in ecov-eval


def test_hub_offline_is_a_clear_error(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")}
    code = "from ecov.harness.cli.data import main; main()"
    p = subprocess.run([sys.executable, "-c", code, "list", "ecov-org/cvdp-ecov"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2  # as ecov-eval --benchmark: the benchmark named cannot be loaded
    assert "cannot load hub dataset 'ecov-org/cvdp-ecov'" in p.stderr and "offline mode is on" in p.stderr
    assert "pass that folder's path" in p.stderr


# ---- publish ------------------------------------------------------------------------------------------


class FakeHub(http.server.ThreadingHTTPServer):
    """The few hub endpoints create_repo + upload_folder call; records what it was sent."""

    def __init__(self, fail: bool = False):
        self.calls: list[tuple[str, str]] = []
        self.files: dict[str, bytes] = {}
        self.fail = fail
        super().__init__(("127.0.0.1", 0), _Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_port}"


class _Handler(http.server.BaseHTTPRequestHandler):
    server: FakeHub

    def log_message(self, *args) -> None:
        pass

    def _reply(self, code: int, body: dict | list) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.calls.append(("POST", self.path))
        if self.server.fail:
            return self._reply(401, {"error": "Invalid credentials in Authorization header"})
        if self.path == "/api/repos/create":
            return self._reply(200, {"url": f"{self.server.url}/datasets/{json.loads(body)['organization']}/"
                                            f"{json.loads(body)['name']}"})
        if self.path == "/api/validate-yaml":
            yaml.safe_load(json.loads(body)["content"].split("---")[1])
            return self._reply(200, {"errors": [], "warnings": []})
        if "/preupload/" in self.path:
            files = json.loads(body)["files"]
            return self._reply(200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False}
                                               for f in files]})
        if "/commit/" in self.path:
            for line in body.decode().splitlines():
                op = json.loads(line)
                if op["key"] == "file":
                    self.server.files[op["value"]["path"]] = base64.b64decode(op["value"]["content"])
            return self._reply(200, {"commitUrl": f"{self.server.url}/datasets/o/n/commit/{'a' * 40}",
                                     "commitOid": "a" * 40})
        return self._reply(404, {"error": "not found"})

    def do_GET(self) -> None:
        self.server.calls.append(("GET", self.path))
        sha = "a" * 40
        if "/revision/" in self.path:  # repo_info: the files uploaded so far, at one commit
            return self._reply(200, {"id": "o/n", "sha": sha, "siblings": [{"rfilename": f} for f in self.server.files]})
        if f"/tree/{sha}" in self.path:  # list_repo_tree, recursive, one page
            return self._reply(200, [{"type": "file", "path": f, "size": len(b), "oid": f"{hash(b) & 0xffffffff:x}"}
                                     for f, b in self.server.files.items()])
        name = self.path.split(f"/resolve/{sha}/", 1)[-1]
        if "/resolve/" not in self.path or name not in self.server.files:
            return self._reply(404, {"error": "not found"})
        data = self.server.files[name]
        self.send_response(200)
        for k, v in (("Content-Length", str(len(data))), ("ETag", f'"{hash(data) & 0xffffffff:x}"'),
                     ("X-Repo-Commit", sha)):
            self.send_header(k, v)
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(data)

    do_HEAD = do_GET


@needs_shared
def test_publish_uploads_folder_with_card(tmp_path):
    out = tmp_path / "cvdp"
    assert CliRunner().invoke(main, ["build", "cvdp-ecov", "--source", str(SHARED / "cvdp-examples"),
                                     "--out", str(out)]).exit_code == 0
    card = render_card(out)
    meta = yaml.safe_load(card.split("---")[1])
    assert meta["license"] == "other" and meta["configs"][0]["data_files"][0]["path"] == "data/test.parquet"
    for text in ("CC BY 4.0", "Apache-2.0", "nvidia/cvdp-benchmark-dataset", "min(upstream TARGET, floor(ceiling))",
                 "cvdp_agentic_8x3_priority_encoder_0003", "not calibrated"):
        assert text in card
    hub = FakeHub()
    try:
        url = publish(out, "ecov-org/cvdp-ecov", token="hf_test", endpoint=hub.url)
    finally:
        hub.shutdown()
    assert url.endswith("/datasets/ecov-org/cvdp-ecov")
    assert ("POST", "/api/repos/create") in hub.calls
    assert sorted(hub.files) == ["README.md", "data/test.parquet", "manifest.json"]
    assert hub.files["README.md"].decode() == card
    assert hub.files["data/test.parquet"] == (out / "data" / "test.parquet").read_bytes()


@needs_shared
def test_publish_errors_are_clear(tmp_path):
    out = tmp_path / "cvdp"
    CliRunner().invoke(main, ["build", "cvdp-ecov", "--source", str(SHARED / "cvdp-examples"), "--out", str(out)])
    hub = FakeHub(fail=True)
    try:
        with pytest.raises(PublishError, match=r"publishing .* to dataset 'o/n' at http://127\.0\.0\.1:\d+ failed"):
            publish(out, "o/n", token="hf_bad", endpoint=hub.url)
        r = CliRunner().invoke(main, ["publish", str(out), "--repo-id", "o/n", "--endpoint", hub.url])
        assert r.exit_code == 1 and "Check the network, the token" in r.output
    finally:
        hub.shutdown()
    r = CliRunner().invoke(main, ["publish", str(out), "--repo-id", "no-slash"])
    assert r.exit_code == 2 and "owner/name" in r.output
    r = CliRunner().invoke(main, ["publish", str(tmp_path), "--repo-id", "o/n"])
    assert r.exit_code == 2 and "not a built benchmark folder" in r.output


def test_built_and_published_copies_carry_the_bug_hunt(tmp_path, monkeypatch):
    """The bug hunt's files (issue 31) travel with a build and a publish: the built embedded suite loads
    back with the same mutants, self-checking references and kill-rate targets, publish uploads them, and
    a hub dataset's rows get them back from the hub."""
    out = tmp_path / "embedded"
    r = CliRunner().invoke(main, ["build", "ecov-embedded", "--out", str(out)])
    assert r.exit_code == 0 and "bug-hunt mutants of 16 tasks" in r.output, r.output
    suite, built = {t.id: t for t in load_suite()}, {t.id: t for t in load_benchmark(out)}
    for tid, t in suite.items():
        b = built[tid]
        assert b.mutants.to_dict() == t.mutants.to_dict() and b.bughunt_target == t.bughunt_target is not None
        assert [f.content for f in b.bughunt_tbs] == [f.content for f in t.bughunt_tbs]
    assert "## Bug-hunt mutants" in render_card(out)
    bare = tmp_path / "bare"  # rows without their mutants: the bug hunt refuses to start, it scores nothing
    shutil.copytree(out / "data", bare / "data")
    shutil.copy(out / "manifest.json", bare)
    r = CliRunner().invoke(eval_cmd, ["--model", "builtin/random", "--protocol", "bughunt", "--mode", "direct",
                                      "--benchmark", str(bare), "--out", str(tmp_path / "run"), "--limit", "1"])
    assert r.exit_code == 2 and "carries killable mutants" in r.output and not (tmp_path / "run").exists(), r.output
    hub = FakeHub()
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hf"))
    try:
        publish(out, "ecov-org/ecov-embedded", token="hf_test", endpoint=hub.url)
        rows = attach_hub_files(load_folder(out), "ecov-org/ecov-embedded", endpoint=hub.url)
    finally:
        hub.shutdown()
    assert {t.id: t.mutants.to_dict() for t in rows} == {t: s.mutants.to_dict() for t, s in suite.items()}
    assert {t.id: t.bughunt_target for t in rows} == {t: s.bughunt_target for t, s in suite.items()}
    assert {f"mutants/{t}.json" for t in suite} | {f"bughunt_references/{t}.sv" for t in suite} <= set(hub.files)
    assert json.loads(hub.files["bughunt_targets.json"])["tasks"]["uart"]["target"] == suite["uart"].bughunt_target
