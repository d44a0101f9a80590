// Interface contract of pwm_dimmer (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic btn, input logic wrap_mode,
    input logic [3:0] level, input logic long_press, input logic pressed);
  logic pressed_q; logic [3:0] level_q;
  always @(posedge clk) begin pressed_q <= pressed; level_q <= level; end
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(debounced_press, pressed && !pressed_q)
    `ECOV_COVER(short_press_step, level == level_q + 4'd1)
    `ECOV_COVER(wrap_to_zero, level_q == 4'd8 && level == 4'd0 && !long_press)
    `ECOV_COVER(stay_at_eight, !pressed && pressed_q && level_q == 4'd8 && level == 4'd8)
    `ECOV_COVER(long_press_pulse, long_press)
    `ECOV_COVER(full_brightness, level == 4'd8)
    `ECOV_COVER(bounce_rejected, btn != pressed && !pressed_q && !pressed)
  end
endmodule
