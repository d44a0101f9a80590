// Interface contract of seq_detector (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic din_valid, input logic din,
    input logic overlap, input logic clr_count, input logic detect, input logic timeout,
    input logic [3:0] count, input logic [2:0] state_o);
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(detected, detect)
    `ECOV_COVER(overlap_reuse, detect && overlap && din_valid && !din)
    `ECOV_COVER(no_overlap_restart, detect && !overlap && din_valid && !din)
    `ECOV_COVER(partial_timeout, timeout)
    `ECOV_COVER(count_saturated, count == 4'd15)
    `ECOV_COVER(clear_over_count, clr_count && detect)
    `ECOV_COVER(idle_in_partial, !din_valid && state_o != 3'd0 && state_o != 3'd4)
  end
endmodule
