// Interface contract of pkt_parser (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic in_valid, input logic clr_stats,
    input logic pkt_good, input logic pkt_bad, input logic len_err, input logic cmd_err,
    input logic [3:0] good_cnt, input logic [3:0] bad_cnt, input logic [2:0] state_o);
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(good_packet, pkt_good)
    `ECOV_COVER(bad_checksum, pkt_bad)
    `ECOV_COVER(length_error, len_err)
    `ECOV_COVER(command_error, cmd_err)
    `ECOV_COVER(gap_inside_packet, !in_valid && state_o != 3'd0)
    `ECOV_COVER(good_cnt_saturated, good_cnt == 4'd15)
    `ECOV_COVER(clear_stats, clr_stats && (good_cnt != 0 || bad_cnt != 0))
  end
endmodule
