// SPDX-License-Identifier: Apache-2.0
// Byte-wise CRC engine: CRC-8 (poly 0x07, init 0x00) or CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF),
// MSB first, no reflection, no final XOR.
module crc_engine (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        mode16,    // 0: CRC-8, 1: CRC-16
    input  logic        start,     // reload the init value for the selected mode
    input  logic        valid,
    input  logic [7:0]  data,
    output logic [15:0] crc,
    output logic [7:0]  nbytes     // bytes since start, saturating at 255
);
  logic [15:0] next;

  always_comb begin
    next = crc;
    if (mode16) begin
      next = crc ^ {data, 8'h00};
      for (int i = 0; i < 8; i++) next = next[15] ? ((next << 1) ^ 16'h1021) : (next << 1);
    end else begin
      next[7:0] = crc[7:0] ^ data;
      for (int i = 0; i < 8; i++) next[7:0] = next[7] ? ((next[7:0] << 1) ^ 8'h07) : (next[7:0] << 1);
      next[15:8] = 8'h00;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      crc    <= 16'h0000;
      nbytes <= '0;
    end else if (start) begin
      crc    <= mode16 ? 16'hFFFF : 16'h0000;
      nbytes <= '0;
    end else if (valid) begin
      crc <= next;
      if (nbytes != 8'hFF) nbytes <= nbytes + 1'b1;
    end
  end
endmodule
