// SPDX-License-Identifier: Apache-2.0
// Valid/ready skid buffer: registered outputs and a registered s_ready, with one spare entry that
// catches the beat accepted while the output stalls.
module skid_buffer #(
    parameter int W = 9
) (
    input  logic         clk,
    input  logic         rst_n,
    input  logic         flush,
    input  logic         s_valid,
    output logic         s_ready,
    input  logic [W-1:0] s_data,
    output logic         m_valid,
    input  logic         m_ready,
    output logic [W-1:0] m_data,
    output logic         skid_full
);
  logic [W-1:0] skid_data;

  assign s_ready = !skid_full;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      m_valid   <= 1'b0;
      m_data    <= '0;
      skid_full <= 1'b0;
      skid_data <= '0;
    end else if (flush) begin
      m_valid   <= 1'b0;
      skid_full <= 1'b0;
    end else if (m_ready || !m_valid) begin
      if (skid_full) begin
        m_data    <= skid_data;
        m_valid   <= 1'b1;
        skid_full <= 1'b0;
      end else begin
        m_valid <= s_valid;
        if (s_valid) m_data <= s_data;
      end
    end else if (s_valid && s_ready) begin
      skid_data <= s_data;
      skid_full <= 1'b1;
    end
  end
endmodule
