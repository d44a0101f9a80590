// Interface contract of Prob063_review2015_shiftcount (issue 22): the full system never uses shift_ena
// and count_ena together, so at a rising edge of clk (when the register uses them) at most one of them
// is 1. Bins are sampled at the rising edge too: what the register does at that edge
// (shift_whole_word: the fourth shift in a row, a whole number loaded most-significant bit first).
module ecov_contract (input logic clk, input logic shift_ena, input logic count_ena, input logic data,
                      input logic [3:0] q);
  logic shifted = 1'b0;  // the previous rising edge shifted
  int shifts = 0;        // rising edges in a row that shifted, this one excluded
  always @(posedge clk) begin
    if (shift_ena && count_ena) `ECOV_VIOLATION(shift_count_exclusive)
    `ECOV_COVER(shift_in_0, shift_ena && !count_ena && data == 1'b0)
    `ECOV_COVER(shift_in_1, shift_ena && !count_ena && data == 1'b1)
    `ECOV_COVER(count_down, count_ena && !shift_ena && q > 4'd1)
    `ECOV_COVER(count_to_zero, count_ena && !shift_ena && q == 4'd1)
    `ECOV_COVER(count_wraps, count_ena && !shift_ena && q == 4'd0)
    `ECOV_COVER(count_after_shift, count_ena && !shift_ena && shifted)
    `ECOV_COVER(hold, !shift_ena && !count_ena && !$isunknown(q))
    `ECOV_COVER(shift_whole_word, shift_ena && !count_ena && shifts >= 3)
    shifted <= shift_ena && !count_ena;
    shifts <= shift_ena && !count_ena ? shifts + 1 : 0;
  end
endmodule
