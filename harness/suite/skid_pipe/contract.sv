// Interface contract of skid_pipe (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic flush, input logic s_valid,
    input logic s_ready, input logic s_last, input logic m_valid, input logic m_ready, input logic m_sat,
    input logic m_last, input logic dropped, input logic skid_full, input logic oversize);
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(output_stall, m_valid && !m_ready)
    `ECOV_COVER(skid_used, skid_full)
    `ECOV_COVER(input_backpressure, s_valid && !s_ready)
    `ECOV_COVER(saturated_beat, m_valid && m_ready && m_sat)
    `ECOV_COVER(packet_end_out, m_valid && m_ready && m_last && !flush)
    `ECOV_COVER(flush_drops, flush && (m_valid || skid_full))
    `ECOV_COVER(oversize_packet, oversize)
  end
endmodule
