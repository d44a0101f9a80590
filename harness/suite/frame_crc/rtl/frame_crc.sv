// SPDX-License-Identifier: Apache-2.0
// Serial frame checker: frames start with sof and end with eof; the bits in between are a header
// byte {type[1:0], len[5:0]}, len payload bytes and a CRC-8 byte. Checks byte alignment, minimum
// size, length and CRC, then acts on good frames by type.
module frame_crc (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       sof,
    input  logic       eof,
    input  logic       bit_valid,
    input  logic       din,
    input  logic       clr,
    output logic       frame_ok,
    output logic       frame_err,
    output logic [2:0] err_code,
    output logic [3:0] ok_cnt,
    output logic [3:0] err_cnt,
    output logic [7:0] last_data,
    output logic [7:0] ctrl_reg,
    output logic       pong,
    output logic       type_err
);
  logic       in_frame, crc_en;
  logic [7:0] nbits, hdr, pay0, crc, byte_in;
  logic [6:0] shreg;
  logic [4:0] nbytes;

  assign crc_en  = bit_valid && in_frame && !sof && !eof;
  assign byte_in = {shreg, din};
  assign nbytes  = nbits[7:3];

  crc8_serial u_crc (.clk, .rst_n, .init(sof), .en(crc_en), .din, .crc);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      in_frame  <= 1'b0;
      nbits     <= '0;
      hdr       <= '0;
      pay0      <= '0;
      shreg     <= '0;
      frame_ok  <= 1'b0;
      frame_err <= 1'b0;
      err_code  <= '0;
      ok_cnt    <= '0;
      err_cnt   <= '0;
      last_data <= '0;
      ctrl_reg  <= '0;
      pong      <= 1'b0;
      type_err  <= 1'b0;
    end else begin
      frame_ok  <= 1'b0;
      frame_err <= 1'b0;
      pong      <= 1'b0;
      if (sof) begin
        in_frame <= 1'b1;
        nbits    <= '0;
        if (in_frame) begin  // a new frame before eof: the old one is aborted
          frame_err <= 1'b1;
          err_code  <= 3'd5;
          if (err_cnt != 4'hf) err_cnt <= err_cnt + 1'b1;
        end
      end else if (eof && in_frame) begin
        in_frame <= 1'b0;
        if (nbits[2:0] != 3'd0 || nbits < 8'd16 || hdr[5:0] != {1'b0, nbytes - 5'd2}
            || crc != 8'h00) begin
          frame_err <= 1'b1;
          if (err_cnt != 4'hf) err_cnt <= err_cnt + 1'b1;
          if (nbits[2:0] != 3'd0) err_code <= 3'd1;       // not whole bytes
          else if (nbits < 8'd16) err_code <= 3'd2;       // runt
          else if (hdr[5:0] != {1'b0, nbytes - 5'd2}) err_code <= 3'd3;  // length
          else err_code <= 3'd4;                          // CRC
        end else begin
          frame_ok <= 1'b1;
          err_code <= 3'd0;
          if (ok_cnt != 4'hf) ok_cnt <= ok_cnt + 1'b1;
          case (hdr[7:6])
            2'd0: if (hdr[5:0] != 6'd0) last_data <= pay0;          // DATA
            2'd1: if (hdr[5:0] == 6'd1) ctrl_reg <= pay0;           // CTRL
                  else type_err <= 1'b1;
            2'd2: pong <= 1'b1;                                     // PING
            default: type_err <= 1'b1;                              // reserved
          endcase
        end
      end else if (bit_valid && in_frame) begin
        shreg <= byte_in[6:0];
        if (nbits != 8'hff) nbits <= nbits + 1'b1;
        if (nbits == 8'd7) hdr <= byte_in;
        if (nbits == 8'd15) pay0 <= byte_in;
      end
      if (clr) begin
        ok_cnt   <= '0;
        err_cnt  <= '0;
        type_err <= 1'b0;
      end
    end
  end
endmodule
