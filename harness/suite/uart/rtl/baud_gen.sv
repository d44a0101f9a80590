// SPDX-License-Identifier: Apache-2.0
// Baud tick generator: one `tick` every (div + 1) cycles; a tick is 1/8 of a bit time.
module baud_gen (
    input  logic       clk,
    input  logic       rst_n,
    input  logic [7:0] div,
    output logic       tick
);
  logic [7:0] cnt;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      cnt  <= '0;
      tick <= 1'b0;
    end else if (cnt >= div) begin
      cnt  <= '0;
      tick <= 1'b1;
    end else begin
      cnt  <= cnt + 1'b1;
      tick <= 1'b0;
    end
  end
endmodule
