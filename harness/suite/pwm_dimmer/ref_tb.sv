// SPDX-License-Identifier: Apache-2.0
// Reference testbench for pwm_dimmer: bouncing presses, short and long presses, both wrap modes,
// and the PWM duty cycle measured at every level.
module tb;
  logic diag;
  logic clk = 0, rst_n = 0, btn = 0, wrap_mode = 0;
  logic [3:0] level;
  logic led, long_press, pressed, pwm_sync;
  int errors = 0, m_level = 0;

  pwm_dimmer #(.STABLE(8), .LONG(40)) dut (.*);

  always #5 clk = ~clk;

  task automatic wait_cycles(input int n);
    repeat (n) @(posedge clk);
    #1;
  endtask

  // A press with bounces on both edges; hold = cycles the button is held steadily.
  task automatic press(input int hold, input bit bounce = 1);
    if (bounce) repeat (3) begin btn = 1; wait_cycles($urandom_range(1, 5)); btn = 0; wait_cycles($urandom_range(1, 4)); end
    btn = 1; wait_cycles(hold);
    if (bounce) repeat (2) begin btn = 0; wait_cycles($urandom_range(1, 3)); btn = 1; wait_cycles($urandom_range(1, 3)); end
    btn = 0; wait_cycles(14);
  endtask

  task automatic short_press();
    press(12);
    m_level = (m_level == 8) ? (wrap_mode ? 0 : 8) : m_level + 1;
    if (level !== 4'(m_level)) begin errors++; $error("level=%0d expected %0d", level, m_level); end
  endtask

  task automatic check_duty();
    int high = 0;
    wait_cycles(10);
    @(posedge clk iff pwm_sync);
    repeat (8) begin #1 high += led; @(posedge clk); end
    if (high != m_level) begin errors++; $error("duty %0d/8 at level %0d", high, m_level); end
  endtask

  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1;
    check_duty();
    // Glitches shorter than the debounce time are ignored.
    repeat (4) begin btn = 1; wait_cycles(5); btn = 0; wait_cycles(3); end
    wait_cycles(12);
    if (pressed || level != 0) begin errors++; $error("glitch accepted"); end
    // Step through every level, saturate at 8.
    for (int i = 0; i < 10; i++) begin short_press(); check_duty(); end
    // Long press switches off; its release does not step.
    press(60);
    m_level = 0;
    if (level !== 0) begin errors++; $error("long press did not switch off"); end
    // Wrap mode.
    wrap_mode = 1;
    repeat (10) short_press();
    check_duty();
    press(45, 0); m_level = 0;
    short_press();
    // Service code on wrap_mode (spec): a wrong pulse, a wrong gap, a 16-cycle pulse, then 4, 6, 9, 7.
    wrap_mode = 1; wait_cycles(5); wrap_mode = 0; wait_cycles(3); wrap_mode = 1; wait_cycles(4); wrap_mode = 0; wait_cycles(2); wrap_mode = 1; wait_cycles(16); wrap_mode = 0; wait_cycles(3);
    wrap_mode = 1; wait_cycles(4); wrap_mode = 0; wait_cycles(3); wrap_mode = 1; wait_cycles(6); wrap_mode = 0; wait_cycles(3); wrap_mode = 1; wait_cycles(9); wrap_mode = 0; wait_cycles(3); wrap_mode = 1; wait_cycles(7); wrap_mode = 0; wait_cycles(16);
    if (!diag) begin errors++; $error("diag not set by the service code"); end
    #1 rst_n = 0; #1 rst_n = 1; m_level = 0; wrap_mode = 0;
    short_press();
    if (errors == 0) $display("PASS"); else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
