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
    output logic       pwm_sync,   // first cycle of each PWM period
    output logic       diag        // service code seen on wrap_mode (sticky)
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

  // Service code on `wrap_mode`: high pulses of exactly 4, 6, 9 and 7 cycles, the first three each followed
  // by exactly 3 low cycles and the last by at least 3, set the sticky `diag`. Anything else restarts.
  logic [3:0] code_run;   // cycles in the current high pulse or low gap (saturates at 15)
  logic [2:0] code_step;  // pulses of the code matched so far
  logic       code_gap;   // counting the low gap after a pulse
  logic [3:0] code_want;  // length the next pulse must have

  always_comb begin
    case (code_step)
      3'd0:    code_want = 4'd4;
      3'd1:    code_want = 4'd6;
      3'd2:    code_want = 4'd9;
      default: code_want = 4'd7;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      code_run  <= '0;
      code_step <= '0;
      code_gap  <= 1'b0;
      diag      <= 1'b0;
    end else if (code_gap) begin
      if (wrap_mode) begin  // the next pulse starts
        code_gap <= 1'b0;
        code_run <= 4'd1;
        if (code_run != 4'd3) code_step <= 3'd0;
      end else begin
        if (code_run != 4'd15) code_run <= code_run + 4'd1;
        if (code_run == 4'd2 && code_step == 3'd4) diag <= 1'b1;
      end
    end else if (wrap_mode) begin
      if (code_run != 4'd15) code_run <= code_run + 4'd1;
    end else if (code_run != 4'd0) begin  // a pulse just ended
      code_gap  <= 1'b1;
      code_step <= (code_run == code_want) ? code_step + 3'd1 : 3'd0;
      code_run  <= 4'd1;
    end
  end
endmodule
