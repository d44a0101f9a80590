// SPDX-License-Identifier: Apache-2.0
// Streaming pipeline: skid buffer -> multiply-by-3 with saturation -> register stage.
// Counts output beats and packets, reports beats lost to a flush and over-long input packets.
module stream_pipe #(
    parameter int MAX_LEN = 16
) (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       flush,
    input  logic       s_valid,
    output logic       s_ready,
    input  logic [7:0] s_data,
    input  logic       s_last,
    output logic       m_valid,
    input  logic       m_ready,
    output logic [7:0] m_data,
    output logic       m_last,
    output logic       m_sat,
    output logic [7:0] beats,
    output logic [3:0] packets,
    output logic       dropped,
    output logic       skid_full,
    output logic       oversize,
    output logic       diag
);
  logic       k_valid, k_ready;
  logic [8:0] k_data;
  logic [9:0] scaled;
  logic [9:0] out_word;
  logic [4:0] pkt_len;  // beats of the current input packet, saturating at MAX_LEN

  skid_buffer #(.W(9)) u_skid (
      .clk, .rst_n, .flush, .s_valid, .s_ready, .s_data({s_last, s_data}),
      .m_valid(k_valid), .m_ready(k_ready), .m_data(k_data), .skid_full
  );

  // x * 3 = (x << 1) + x, saturated to 8 bits; the saturation flag travels with the beat.
  always_comb begin
    logic [9:0] prod;
    prod = {1'b0, k_data[7:0], 1'b0} + {2'b00, k_data[7:0]};
    scaled = (prod > 10'd255) ? {k_data[8], 1'b1, 8'hFF} : {k_data[8], 1'b0, prod[7:0]};
  end

  pipe_reg #(.W(10)) u_reg (
      .clk, .rst_n, .flush, .in_valid(k_valid), .in_ready(k_ready), .in_data(scaled),
      .out_valid(m_valid), .out_ready(m_ready), .out_data(out_word)
  );

  assign m_last = out_word[9];
  assign m_sat  = out_word[8];
  assign m_data = out_word[7:0];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      beats   <= '0;
      packets <= '0;
      dropped <= 1'b0;
    end else begin
      if (m_valid && m_ready && !flush) begin
        beats <= beats + 1'b1;
        if (m_last) packets <= packets + 1'b1;
      end
      if (flush && (k_valid || m_valid)) dropped <= 1'b1;
    end
  end

  // Input packet length check.
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      pkt_len  <= '0;
      oversize <= 1'b0;
    end else if (flush) begin
      pkt_len <= '0;
    end else if (s_valid && s_ready) begin
      if (pkt_len == 5'(MAX_LEN)) oversize <= 1'b1;
      if (s_last) pkt_len <= '0;
      else if (pkt_len != 5'(MAX_LEN)) pkt_len <= pkt_len + 1'b1;
    end
  end

  // Diagnostic unlock (flush with s_valid high): K (K[1:0] = 2'b01), ~K, K+1, ~(K+1) on `s_data`
  // in four consecutive cycles; anything else restarts the key. `diag` is sticky until reset.
  logic [1:0]       key_step;
  logic [7:2] key_hi;  // the upper bits of K (K[1:0] is always 2'b01)
  logic             key_hit;

  always_comb begin
    case (key_step)
      2'd1:    key_hit = (s_data == ~{key_hi, 2'b01});
      2'd2:    key_hit = (s_data == {key_hi, 2'b01} + 1'b1);
      2'd3:    key_hit = (s_data == ~({key_hi, 2'b01} + 1'b1));
      default: key_hit = (s_data[1:0] == 2'b01);
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      key_step <= 2'd0;
      key_hi   <= '0;
      diag     <= 1'b0;
    end else if (flush && s_valid && key_hit) begin
      if (key_step == 2'd0) key_hi <= s_data[7:2];
      if (key_step == 2'd3) diag <= 1'b1;
      key_step <= key_step + 2'd1;
    end else begin
      key_step <= 2'd0;
    end
  end
endmodule
