// Interface contract of endian_swapper (cvdp endian_swapper_0004, issue 22): the input stream follows the
// AXI4-Stream handshake the prompt names: a beat offered with stream_in_valid and not taken (stream_in_ready
// low at that rising edge) is still offered, unchanged, at the next rising edge (reset ends the obligation).
// stream_out_ready (the sink's ready) and the CSR port carry no rule.
// For the bins the monitor rebuilds, from the ports, what the design does with CSR writes: the output-side
// packet state (SOP/EOP at output handshakes), the waitrequest it registers from it, and the swap bit
// written at address 0 while that is low.
module ecov_contract #(parameter DATA_BYTES = 8) (
    input logic clk, input logic reset_n,
    input logic [(DATA_BYTES*8)-1:0] stream_in_data, input logic [$clog2(DATA_BYTES)-1:0] stream_in_empty,
    input logic stream_in_valid, input logic stream_in_startofpacket, input logic stream_in_endofpacket,
    input logic stream_in_ready,
    input logic stream_out_valid, input logic stream_out_ready, input logic stream_out_startofpacket,
    input logic stream_out_endofpacket,
    input logic [1:0] csr_address, input logic csr_read, input logic csr_write, input logic [31:0] csr_writedata,
    input logic csr_readdatavalid, input logic csr_waitrequest);
  localparam int DW = DATA_BYTES * 8;
  localparam int EW = $clog2(DATA_BYTES);

  // rule: a stalled beat stays offered and unchanged until the edge that takes it
  logic stalled, sop_q, eop_q;
  logic [DW-1:0] data_q;
  logic [EW-1:0] empty_q;
  always @(posedge clk or negedge reset_n) begin
    if (!reset_n) stalled <= 1'b0;
    else begin
      if (stalled && (stream_in_valid !== 1'b1 || stream_in_data !== data_q || stream_in_empty !== empty_q ||
                      stream_in_startofpacket !== sop_q || stream_in_endofpacket !== eop_q))
        `ECOV_VIOLATION(valid_held_until_ready)
      stalled <= stream_in_valid && !stream_in_ready;
      data_q <= stream_in_data; empty_q <= stream_in_empty;
      sop_q <= stream_in_startofpacket; eop_q <= stream_in_endofpacket;
    end
  end

  // port-level model for the bins
  logic out_pkt, in_pkt, wait_q, swap;
  wire hs_in = stream_in_valid && stream_in_ready;
  always @(posedge clk or negedge reset_n) begin
    if (!reset_n) begin out_pkt <= 1'b0; in_pkt <= 1'b0; wait_q <= 1'b1; swap <= 1'b0; end
    else begin
      if (stream_out_valid && stream_out_ready) begin
        if (stream_out_startofpacket) out_pkt <= 1'b1;
        if (stream_out_endofpacket) out_pkt <= 1'b0;
      end
      if (hs_in) begin
        if (stream_in_startofpacket) in_pkt <= 1'b1;
        if (stream_in_endofpacket) in_pkt <= 1'b0;
      end
      wait_q <= out_pkt;
      if (csr_write && !wait_q && csr_address == 2'd0) swap <= csr_writedata[0];
    end
  end

  always @(posedge clk) if (reset_n) begin
    `ECOV_COVER(word_no_swap, hs_in && !swap)
    `ECOV_COVER(word_swapped, hs_in && swap)
    `ECOV_COVER(multi_word_packet_end, hs_in && in_pkt && stream_in_endofpacket && !stream_in_startofpacket)
    `ECOV_COVER(output_backpressure, stream_out_valid && !stream_out_ready)
    `ECOV_COVER(input_stalled_buffers_full, stream_in_valid && !stream_in_ready)
    `ECOV_COVER(drain_from_full, stream_out_valid && stream_out_ready && !stream_in_ready)
    `ECOV_COVER(csr_write_accepted, csr_write && !wait_q)
    `ECOV_COVER(csr_readback, csr_readdatavalid)
    `ECOV_COVER(csr_read_mid_packet, csr_read && (in_pkt || out_pkt))
    `ECOV_COVER(csr_access_stalled, (csr_read || csr_write) && csr_waitrequest)
    `ECOV_COVER(zero_word, hs_in && stream_in_data == '0)
    `ECOV_COVER(all_ones_word, hs_in && stream_in_data == '1)
    `ECOV_COVER(partial_empty_end, hs_in && stream_in_endofpacket && stream_in_empty != '0)
  end
endmodule
