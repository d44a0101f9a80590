"""Response parsing: fenced blocks, picking the testbench, patch hunks with wrong line numbers, failures."""

import pytest

from ecov.harness.parse import NO_CODE, PatchError, apply_patch, fenced_blocks, parse_response

TB = """module tb;
  logic clk = 0;
  logic [3:0] q;
  counter uut (.clk(clk), .q(q));
  always #5 clk = ~clk;
  initial begin
    repeat (4) @(posedge clk);
    $finish;
  end
endmodule
"""

DUT = "module counter(input logic clk, output logic [3:0] q);\nendmodule\n"


def fence(code: str, lang: str = "systemverilog", name: str = "tb.sv") -> str:
    return f"{name}\n```{lang}\n{code}```\n"


@pytest.mark.parametrize("lang", ["systemverilog", "verilog", "sv", ""])
def test_full_block_any_language_tag(lang):
    r = parse_response("Here it is.\n\n" + fence(TB, lang) + "\nDone.", dut_module="counter")
    assert (r.kind, r.error, r.testbench) == ("full", "", TB)


def test_picks_the_testbench_among_several_blocks():
    answer = ("The design, for reference:\n" + fence(DUT, "verilog", "counter.sv")
              + "A helper:\n```systemverilog\ntask automatic foo(); endtask\n```\n"
              + "And the testbench:\n" + fence(TB))
    r = parse_response(answer, dut_module="counter", design_modules={"counter"})
    assert r.testbench == TB and r.kind == "full"


def test_testbench_first_then_design_echo_still_picks_testbench():
    r = parse_response(fence(TB) + "\n" + fence(DUT, "sv", "counter.sv"), dut_module="counter",
                       design_modules={"counter"})
    assert r.testbench == TB


def test_reasoning_section_is_ignored():
    answer = "<think>maybe ```sv\nmodule junk; endmodule\n```</think>\n" + fence(TB)
    assert parse_response(answer, dut_module="counter").testbench == TB


def test_no_code_is_an_error_message_not_an_exception():
    r = parse_response("I cannot help with that.", dut_module="counter")
    assert r.testbench is None and r.error == NO_CODE and r.kind == ""
    assert parse_response("", dut_module="counter").error.startswith("Your answer was empty")


def test_unclosed_block_says_the_answer_was_cut_off():
    r = parse_response("tb.sv\n```systemverilog\nmodule tb;\n  initial begin\n", dut_module="counter")
    assert r.testbench is None and "not closed" in r.error


def test_bare_code_without_fences_is_accepted():
    r = parse_response("Sure:\n" + TB, dut_module="counter")
    assert r.testbench is not None and r.testbench.startswith("module tb;") and r.testbench.rstrip().endswith(
        "endmodule")


def test_patch_with_wrong_line_numbers_applies_by_context():
    patch = """tb.sv
```diff
--- a/tb.sv
+++ b/tb.sv
@@ -40,3 +40,3 @@
   initial begin
-    repeat (4) @(posedge clk);
+    repeat (20) @(posedge clk);
     $finish;
```"""
    r = parse_response(patch, current=TB, dut_module="counter")
    assert r.kind == "patch" and r.error == ""
    assert r.testbench == TB.replace("repeat (4)", "repeat (20)")


def test_patch_tolerates_whitespace_differences_and_blank_context():
    cur = "module tb;\n  int a;\n\n  initial begin\n    a = 1;\n  end\nendmodule\n"
    patch = "@@ -2,4 +2,5 @@\n int a;\n\n initial begin\n+    a = 2;\n     a = 1;\n"
    out = apply_patch(cur, patch)
    assert out == "module tb;\n  int a;\n\n  initial begin\n    a = 2;\n    a = 1;\n  end\nendmodule\n"


def test_several_hunks_and_pure_insertions():
    cur = "a\nb\nc\nd\n"
    assert apply_patch(cur, "@@ -0,0 +1 @@\n+top\n@@ -2,1 +3,1 @@\n-b\n+B\n@@ -4,0 +6 @@\n+end\n") == \
        "top\na\nB\nc\nd\nend\n"


def test_hunk_location_is_learned_from_the_previous_hunk():
    cur = "x\ny\nx\ny\nx\ny\n"
    # Both hunks claim line 1; the second, numbered after the first, lands on the next "x y".
    out = apply_patch(cur, "@@ -3,2 +3,2 @@\n x\n-y\n+Y\n@@ -5,2 +5,2 @@\n x\n-y\n+Z\n")
    assert out == "x\ny\nx\nY\nx\nZ\n"


def test_patch_that_does_not_match_becomes_feedback():
    patch = "```diff\n@@ -3,2 +3,2 @@\n-  nothing like this\n+  x\n```"
    r = parse_response(patch, current=TB, dut_module="counter")
    assert r.testbench is None and "hunk 1 of 1" in r.error and "nothing like this" in r.error
    with pytest.raises(PatchError):
        apply_patch(TB, "no hunks at all")


def test_patch_without_current_testbench_is_refused():
    r = parse_response("```diff\n@@ -1,1 +1,1 @@\n-a\n+b\n```", current=None, dut_module="counter")
    assert r.testbench is None and "no current testbench" in r.error


def test_full_file_wins_over_stray_hunks():
    answer = "```diff\n@@ -1 +1 @@\n-x\n+y\n```\nActually, the whole file:\n" + fence(TB)
    assert parse_response(answer, current="x\n", dut_module="counter").kind == "full"


def test_fenced_blocks_keeps_filename_and_nested_fence_length():
    text = "counter_tb.sv\n````verilog\nmodule t; // ``` inside\nendmodule\n````\n"
    (b,) = fenced_blocks(text)
    assert (b.filename, b.lang, b.closed) == ("counter_tb.sv", "verilog", True)
    assert "``` inside" in b.content


def test_helper_blocks_the_testbench_uses_are_kept_in_front():
    pkg = "package tb_pkg;\n  localparam int N = 4;\nendpackage\n"
    tb = TB.replace("module tb;", "module tb;\n  import tb_pkg::*;")
    unused = "interface not_used_if;\nendinterface\n"
    answer = fence(pkg, "sv", "tb_pkg.sv") + fence(unused) + fence(DUT, "sv", "counter.sv") + fence(tb)
    r = parse_response(answer, dut_module="counter", design_modules={"counter"})
    assert r.testbench == pkg + "\n" + tb
