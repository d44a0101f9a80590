// SPDX-License-Identifier: Apache-2.0
// Byte-stream packet receiver: SOF 0xA5, length (1..8), payload, two checksum bytes
// (Fletcher-style s1, s2 over length and payload). Good packets carry a command in the first
// payload byte; statistics count good packets, checksum errors and length errors.
module pkt_parser (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       in_valid,
    input  logic [7:0] in_data,
    input  logic       clr_stats,
    output logic       pkt_good,
    output logic       pkt_bad,
    output logic       len_err,
    output logic       cmd_err,
    output logic [7:0] reg_a,
    output logic [7:0] reg_b,
    output logic [7:0] resp,
    output logic [3:0] good_cnt,
    output logic [3:0] bad_cnt,
    output logic [3:0] len_cnt,
    output logic [2:0] state_o
);
  localparam logic [7:0] SOF = 8'hA5;
  localparam logic [7:0] MAX_LEN = 8'd8;

  typedef enum logic [2:0] {HUNT, LEN, PAYLOAD, CHK1, CHK2} state_t;

  state_t     state;
  logic [3:0] plen, idx;
  logic [7:0] op, arg, chk1;
  logic [7:0] s1, s2;
  logic       csum_clear, csum_add;

  assign state_o    = state;
  assign csum_clear = in_valid && (state == HUNT);
  assign csum_add   = in_valid && (state == LEN || state == PAYLOAD);

  pkt_csum u_csum (
      .clk, .rst_n, .clear(csum_clear), .add(csum_add), .data(in_data), .s1, .s2
  );

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state    <= HUNT;
      plen     <= '0;
      idx      <= '0;
      op       <= '0;
      arg      <= '0;
      chk1     <= '0;
      pkt_good <= 1'b0;
      pkt_bad  <= 1'b0;
      len_err  <= 1'b0;
      cmd_err  <= 1'b0;
      reg_a    <= '0;
      reg_b    <= '0;
      resp     <= '0;
      good_cnt <= '0;
      bad_cnt  <= '0;
      len_cnt  <= '0;
    end else begin
      pkt_good <= 1'b0;
      pkt_bad  <= 1'b0;
      len_err  <= 1'b0;
      if (in_valid) begin
        case (state)
          HUNT: if (in_data == SOF) state <= LEN;
          LEN: begin
            if (in_data == 8'd0 || in_data > MAX_LEN) begin
              len_err <= 1'b1;
              if (len_cnt != 4'hf) len_cnt <= len_cnt + 1'b1;
              state <= HUNT;
            end else begin
              plen  <= in_data[3:0];
              idx   <= '0;
              state <= PAYLOAD;
            end
          end
          PAYLOAD: begin
            if (idx == 4'd0) op <= in_data;
            if (idx == 4'd1) arg <= in_data;
            idx <= idx + 1'b1;
            if (idx + 1'b1 == plen) state <= CHK1;
          end
          CHK1: begin
            chk1  <= in_data;
            state <= CHK2;
          end
          default: begin  // CHK2
            state <= HUNT;
            if (chk1 == s1 && in_data == s2) begin
              pkt_good <= 1'b1;
              if (good_cnt != 4'hf) good_cnt <= good_cnt + 1'b1;
              case (op)
                8'h01: if (plen >= 4'd2) reg_a <= arg; else cmd_err <= 1'b1;
                8'h02: if (plen >= 4'd2) reg_b <= arg; else cmd_err <= 1'b1;
                8'h03: begin  // CLEAR: the statistics, this packet included
                  good_cnt <= '0;
                  bad_cnt  <= '0;
                  len_cnt  <= '0;
                end
                8'h04: resp <= reg_a ^ reg_b;
                8'h05: resp <= reg_a + reg_b;
                default: cmd_err <= 1'b1;
              endcase
            end else begin
              pkt_bad <= 1'b1;
              if (bad_cnt != 4'hf) bad_cnt <= bad_cnt + 1'b1;
            end
          end
        endcase
      end
      if (clr_stats) begin
        good_cnt <= '0;
        bad_cnt  <= '0;
        len_cnt  <= '0;
        cmd_err  <= 1'b0;
      end
    end
  end
endmodule
