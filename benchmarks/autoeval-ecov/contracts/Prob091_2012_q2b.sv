// Interface contract of Prob091_2012_q2b (issue 22): y is the one-hot state code (A=000001, B=000010,
// C=000100, D=001000, E=010000, F=100000). Checked whenever the inputs change, time 0 included (issue 30:
// a value driven at time 0 was never checked). Verilator starts every event control once at time 0 whether
// or not a port changed, so at time 0 a y other than 0 is one the testbench drove; a 0 there is the port
// before the testbench drives it (two-state: not told apart from a driven 0), judged at the next change. A bin is one row of the state table: a state
// with one value of w.
module ecov_contract (input logic [5:0] y, input logic w, input logic Y1, input logic Y3);
  always @(y or w) if ($realtime > 0 || y != 6'b000000) begin
    if (!$onehot(y)) `ECOV_VIOLATION(y_one_hot)
    `ECOV_COVER(a_w0, y == 6'b000001 && !w)
    `ECOV_COVER(a_w1, y == 6'b000001 && w)
    `ECOV_COVER(b_w0, y == 6'b000010 && !w)
    `ECOV_COVER(b_w1, y == 6'b000010 && w)
    `ECOV_COVER(c_w0, y == 6'b000100 && !w)
    `ECOV_COVER(c_w1, y == 6'b000100 && w)
    `ECOV_COVER(d_w0, y == 6'b001000 && !w)
    `ECOV_COVER(d_w1, y == 6'b001000 && w)
    `ECOV_COVER(e_w0, y == 6'b010000 && !w)
    `ECOV_COVER(e_w1, y == 6'b010000 && w)
    `ECOV_COVER(f_w0, y == 6'b100000 && !w)
    `ECOV_COVER(f_w1, y == 6'b100000 && w)
  end
endmodule
