// SPDX-License-Identifier: Apache-2.0
// Button debouncer: synchronises the raw input and accepts a new level only after it was stable
// for STABLE consecutive cycles. Emits one-cycle rise/fall pulses.
module debouncer #(
    parameter int STABLE = 8
) (
    input  logic clk,
    input  logic rst_n,
    input  logic raw,
    output logic level,
    output logic rise,
    output logic fall
);
  logic       s1, s2;
  logic [$clog2(STABLE)-1:0] cnt;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      s1    <= 1'b0;
      s2    <= 1'b0;
      cnt   <= '0;
      level <= 1'b0;
      rise  <= 1'b0;
      fall  <= 1'b0;
    end else begin
      s1   <= raw;
      s2   <= s1;
      rise <= 1'b0;
      fall <= 1'b0;
      if (s2 == level) begin
        cnt <= '0;            // bounce back: start over
      end else if (cnt == $bits(cnt)'(STABLE - 1)) begin
        cnt   <= '0;
        level <= s2;
        rise  <= s2;
        fall  <= !s2;
      end else begin
        cnt <= cnt + 1'b1;
      end
    end
  end
endmodule
