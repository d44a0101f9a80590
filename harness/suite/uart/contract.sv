// Interface contract of uart (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic [7:0] div, input logic parity_en,
    input logic parity_odd, input logic two_stop, input logic loopback, input logic tx_valid, input logic tx_ready,
    input logic rx_valid, input logic rx_ready, input logic rx_parity_err, input logic rx_frame_err,
    input logic rx_break, input logic rx_overrun, input logic rx_false_start);
  // A frame runs from the edge that accepts it (tx_valid && tx_ready) until tx_ready is high again: at every
  // edge in between (tx_ready low, the first edge after the accept included) the transmitter uses `div`, so
  // a new value seen there changed within the frame. (Issue 30: the rule once also asked tx_ready to be low
  // at the edge before, which let a change seen at a frame's first edge through.)
  logic [7:0] div_q;
  always @(posedge clk) div_q <= div;
  always @(posedge clk) if (rst_n) begin
    if (!tx_ready && div != div_q) `ECOV_VIOLATION(div_changes_between_frames)
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
