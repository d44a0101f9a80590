// SPDX-License-Identifier: Apache-2.0
// One-button LED dimmer: a short press steps the brightness (0..8), a long press switches off.
module pwm_dimmer #(
    parameter int STABLE = 8,
    parameter int LONG = 40
) (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       btn,        // raw, bouncing, active high
    input  logic       wrap_mode,  // 1: a short press at level 8 goes to 0; 0: stays at 8
    output logic [3:0] level,
    output logic       led,
    output logic       long_press,
    output logic       pressed,
    output logic       pwm_sync    // first cycle of each PWM period
);
  logic       rise, fall;
  logic [5:0] held;
  logic       long_done;

  debouncer #(.STABLE(STABLE)) u_deb (.clk, .rst_n, .raw(btn), .level(pressed), .rise, .fall);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      level      <= '0;
      held       <= '0;
      long_done  <= 1'b0;
      long_press <= 1'b0;
    end else begin
      long_press <= 1'b0;
      if (rise) begin
        held      <= '0;
        long_done <= 1'b0;
      end else if (pressed && !long_done) begin
        if (held == 6'(LONG - 1)) begin
          long_done  <= 1'b1;
          long_press <= 1'b1;
          level      <= '0;
        end else begin
          held <= held + 1'b1;
        end
      end
      if (fall && !long_done) begin
        if (level == 4'd8) level <= wrap_mode ? 4'd0 : 4'd8;
        else level <= level + 1'b1;
      end
    end
  end

  pwm_gen u_pwm (.clk, .rst_n, .duty(level), .pwm(led), .period_start(pwm_sync));
endmodule
