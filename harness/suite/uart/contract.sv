// Interface contract of uart (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic [7:0] div, input logic parity_en,
    input logic parity_odd, input logic two_stop, input logic loopback, input logic tx_valid, input logic tx_ready,
    input logic rx_valid, input logic rx_ready, input logic rx_parity_err, input logic rx_frame_err,
    input logic rx_break, input logic rx_overrun, input logic rx_false_start);
  logic [7:0] div_q; logic tx_ready_q;
  always @(posedge clk) begin div_q <= div; tx_ready_q <= tx_ready; end
  always @(posedge clk) if (rst_n) begin
    if (!tx_ready && !tx_ready_q && div != div_q) `ECOV_VIOLATION(div_changes_between_frames)
    `ECOV_COVER(tx_frame, tx_valid && tx_ready)
    `ECOV_COVER(parity_frame, tx_valid && tx_ready && parity_en)
    `ECOV_COVER(two_stop_frame, tx_valid && tx_ready && two_stop)
    `ECOV_COVER(loopback_byte, loopback && rx_valid)
    `ECOV_COVER(parity_error, rx_parity_err)
    `ECOV_COVER(frame_error, rx_frame_err)
    `ECOV_COVER(break_frame, rx_break)
    `ECOV_COVER(overrun, rx_overrun)
    `ECOV_COVER(false_start, rx_false_start)
  end
endmodule
