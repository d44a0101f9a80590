// SPDX-License-Identifier: Apache-2.0
// PWM generator with an 8-cycle period: the output is high for `duty` cycles of each period
// (0 = always low, 8 or more = always high). A new duty value takes effect at the start of a period.
module pwm_gen (
    input  logic       clk,
    input  logic       rst_n,
    input  logic [3:0] duty,
    output logic       pwm,
    output logic       period_start
);
  logic [2:0] cnt;
  logic [3:0] duty_q;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      cnt    <= '0;
      duty_q <= '0;
    end else begin
      cnt <= cnt + 1'b1;
      if (cnt == 3'd7) duty_q <= duty;
    end
  end

  assign pwm          = ({1'b0, cnt} < duty_q);
  assign period_start = (cnt == 3'd0);
endmodule
