// Interface contract of sync_fifo (issue 22). The spec states no input rules (pushing a full FIFO and
// popping an empty one are specified behaviour), so only functional bins from its Behaviour list.
module ecov_contract #(parameter int DW = 8, parameter int DEPTH = 32) (
    input logic clk, input logic rst_n, input logic wr_en, input logic rd_en, input logic clr_err,
    input logic full, input logic empty, input logic almost_full, input logic almost_empty,
    input logic [$clog2(DEPTH):0] count, input logic overflow, input logic underflow);
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(push_pop_same_cycle, wr_en && rd_en && !empty && !full)
    `ECOV_COVER(push_full_with_pop, wr_en && rd_en && full)
    `ECOV_COVER(push_dropped_when_full, wr_en && !rd_en && full)
    `ECOV_COVER(pop_while_empty, rd_en && empty)
    `ECOV_COVER(pop_empty_with_push, rd_en && wr_en && empty)
    `ECOV_COVER(reached_full, full)
    `ECOV_COVER(reached_almost_full, almost_full && !full)
    `ECOV_COVER(drained_to_empty, rd_en && !wr_en && count == 1)
    `ECOV_COVER(clear_errors, clr_err && (overflow || underflow))
    `ECOV_COVER(clear_while_error_again, clr_err && wr_en && full && !rd_en)
  end
endmodule
