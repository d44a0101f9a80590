// Interface contract of Prob091_2012_q2b (issue 22): y is the one-hot state code (A=000001, B=000010,
// C=000100, D=001000, E=010000, F=100000). Checked whenever the inputs change after time 0 (before the
// testbench drives anything the input is simply unset). A bin is one row of the state table: a state
// with one value of w.
module ecov_contract (input logic [5:0] y, input logic w, input logic Y1, input logic Y3);
  always @(y or w) if ($realtime > 0) begin
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
