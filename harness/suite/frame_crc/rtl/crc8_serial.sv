// SPDX-License-Identifier: Apache-2.0
// Bit-serial CRC-8, polynomial x^8 + x^2 + x + 1 (0x07), MSB first, preset to 0xFF by init.
module crc8_serial (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       init,
    input  logic       en,
    input  logic       din,
    output logic [7:0] crc
);
  logic fb;

  assign fb = crc[7] ^ din;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) crc <= 8'hff;
    else if (init) crc <= 8'hff;
    else if (en) crc <= {crc[6:0], 1'b0} ^ (fb ? 8'h07 : 8'h00);
  end
endmodule
