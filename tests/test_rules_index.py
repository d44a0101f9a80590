"""The rules' tree index (harness/sim/rules.py ``_TreeIndex``): one native walk of a parsed testbench that
the rules' passes read instead of asking pyslang node by node. Each of its answers must equal what the
per-node pyslang calls give, on real preprocessed text (the design's files, then the testbench, with the
`line directives Verilator writes), including a testbench the parser had to skip tokens in."""

from __future__ import annotations

import pytest

from ecov.harness.sim import rules

DESIGN = ("rtl/alu.sv", """module alu (input logic clk, input logic [7:0] a, output logic [7:0] y);
  logic [7:0] r;
  always_ff @(posedge clk) r <= a + 8'd1;
  assign y = r;
endmodule
""")

TESTBENCHES = {
    "plain": """`timescale 1ns/1ps
module tb;
  logic clk = 0; logic [7:0] a; wire [7:0] y;
  alu dut (.clk(clk), .a(a), .y(y));
  always #5 clk = ~clk;
  task automatic poke(input logic [7:0] v); a = v; endtask
  initial begin
    a = 0; poke(8'h3);
    repeat (4) @(posedge clk);
    dut.r = 8'h5;             // a hierarchical write: found by the rules
    if (y !== 8'h6) $fatal(1, "bad");
    $finish;
  end
endmodule
""",
    "nested": """module tb;
  logic clk; logic [7:0] a; wire [7:0] y;
  alu dut (clk, a, y);
  generate if (1) begin : g
    logic [7:0] shadow;
    initial begin : blk shadow = dut.r; a = shadow; end
  end endgenerate
  initial begin fork begin #1 a = 1; end join_none; #10 $finish; end
endmodule
""",
    "skipped-tokens": """module tb;
  logic [7:0] a;
  initial begin a = ; a = 8'h1 ) ) ; $finish; end
endmodule
""",
}


def _old_in_tb(sm, node) -> bool:
    tok = node if rules._is_token(node) else node.getFirstToken()
    return tok is not None and sm.getFileName(tok.location) == rules.TB_FILE


@pytest.mark.parametrize("name", sorted(TESTBENCHES))
def test_the_index_answers_as_pyslang_does(name):
    pp = rules.preprocess([DESIGN], TESTBENCHES[name])
    assert pp.ok, pp.error
    sm, tree, index = rules._parsed(pp.text)
    assert index.complete
    root = tree.root
    # The old walk: every node, each before its children, the last child first.
    order, stack = [], [root]
    while stack:
        n = stack.pop()
        if rules._is_token(n):
            continue
        order.append(n)
        stack.extend(rules._children(n))
    assert [id(n) for n in index.preorder()] == [id(n) for n in order]
    assert len(order) > 20
    for n in order:
        kids = [c for c in rules._children(n) if not rules._is_token(c)]
        assert [id(c) for c in index.children(n)] == [id(c) for c in kids]
        assert index.in_tb(n) == _old_in_tb(sm, n)
        assert index.kind(n) == rules._kind(n)
        assert index.scope(n) == rules._scope(n)
    old_tokens = [(t.kind, t.location.offset) for t in rules._tokens(root)]
    assert [(t.kind, t.location.offset) for t in index.all_tokens()] == old_tokens
    in_tb = [(t.kind, t.location.offset) for t in rules._tokens(root) if _old_in_tb(sm, t)]
    assert [(t.kind, t.location.offset) for t in index.tb_tokens()] == in_tb
    assert any(index.in_tb(n) for n in order) and not all(index.in_tb(n) for n in order)  # design and testbench
    if name == "skipped-tokens":
        assert len(old_tokens) > len(index.tokens)  # the skipped ones come from the trivia


def test_a_node_from_elsewhere_is_asked_of_pyslang():
    """A node the index did not make (another parse of the same text) gets pyslang's own answers."""
    pp = rules.preprocess([DESIGN], TESTBENCHES["plain"])
    sm, tree, index = rules._parsed(pp.text)
    from pyslang.syntax import SyntaxTree

    other = SyntaxTree.fromText(pp.text, sm, "ecov_pp.sv").root
    kids = [c for c in rules._children(other) if not rules._is_token(c)]
    assert [rules._kind(c) for c in index.children(other)] == [rules._kind(c) for c in kids]
    assert index.in_tb(other) == _old_in_tb(sm, other)


def test_rules_found_through_the_index():
    """The findings themselves, end to end (tests/test_engine.py and the attack suites hold the rest)."""
    found = rules.check_testbench(TESTBENCHES["plain"], ["alu"], [DESIGN[0]], "dut", design_sources=[DESIGN])
    assert [(v.rule, v.line) for v in found] == [("hierarchical-write", 10)]
    nested = rules.check_testbench(TESTBENCHES["nested"], ["alu"], [DESIGN[0]], "dut", design_sources=[DESIGN])
    assert nested == []  # reading dut.r is allowed
