// SPDX-License-Identifier: Apache-2.0
// Fletcher-style 8-bit checksum pair over the bytes of one packet: s1 is the sum of the bytes,
// s2 the sum of the running s1 values (both modulo 256).
module pkt_csum (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       clear,
    input  logic       add,
    input  logic [7:0] data,
    output logic [7:0] s1,
    output logic [7:0] s2
);
  logic [7:0] s1_next;

  assign s1_next = s1 + data;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      s1 <= '0;
      s2 <= '0;
    end else if (clear) begin
      s1 <= '0;
      s2 <= '0;
    end else if (add) begin
      s1 <= s1_next;
      s2 <= s2 + s1_next;
    end
  end
endmodule
