// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module dig_stopwatch_tb;
  localparam CLK_FREQ = 200;
  localparam PERIOD = 1_000_000_000 / CLK_FREQ;   // ns
  reg clk = 0, reset, start_stop;
  wire [5:0] seconds, minutes;
  wire hour;

  dig_stopwatch #(.CLK_FREQ(CLK_FREQ)) uut (.clk(clk), .reset(reset), .start_stop(start_stop),
    .seconds(seconds), .minutes(minutes), .hour(hour));

  always #(PERIOD / 2) clk = ~clk;

  // Model of the spec: while start_stop is 1 a divider counts clock cycles and pulses once every CLK_FREQ
  // cycles (one second); each pulse advances seconds (0..59), rolling into minutes (0..59), and after
  // 59:59 sets hour, after which the count stays. reset (asynchronous, active high) clears everything.
  // Inputs change right after a rising edge and the design samples them there: the model steps 1 ns later.
  int m_div = 0;
  bit m_pulse = 0, m_hour = 0;
  int m_sec = 0, m_min = 0;
  task automatic check(input string where);
    if (seconds !== 6'(m_sec) || minutes !== 6'(m_min) || hour !== m_hour)
      $fatal(1, "%0t (%s): %b %0d:%0d, expected %b %0d:%0d", $time, where, hour, minutes, seconds, m_hour, m_min, m_sec);
  endtask
  always @(posedge reset) begin
    m_div = 0; m_pulse = 0; m_hour = 0; m_sec = 0; m_min = 0;
    #0.5 check("reset");
  end
  always @(posedge clk) begin
    #1;
    if (reset) begin m_div = 0; m_pulse = 0; m_hour = 0; m_sec = 0; m_min = 0; end
    else begin
      automatic bit pulse = 0;
      if (start_stop) begin
        if (m_div == CLK_FREQ - 1) begin m_div = 0; pulse = 1; end else m_div++;
      end
      if (pulse && !m_pulse && start_stop && !m_hour) begin
        if (m_sec < 59) m_sec++;
        else begin
          m_sec = 0;
          if (m_min < 59) m_min++; else begin m_min = 0; m_hour = 1; end
        end
      end
      m_pulse = pulse;
    end
    check("clock");
  end

  task automatic run_seconds(input int s);
    start_stop = 1; repeat (s * CLK_FREQ) @(posedge clk);
  endtask

  initial begin
    reset = 1; start_stop = 0;
    repeat (3) @(posedge clk); reset = 0;
    // run, pause, resume
    run_seconds(5);
    start_stop = 0; repeat (3 * CLK_FREQ) @(posedge clk);
    $display("paused at %0d:%0d", minutes, seconds);
    run_seconds(3);
    // pause in the middle of a second
    start_stop = 0; repeat (CLK_FREQ / 2) @(posedge clk);
    run_seconds(2);
    // asynchronous reset while running
    #(PERIOD / 4) reset = 1; #(PERIOD / 4) reset = 0;
    // run to one hour (seconds and minutes roll over), then stay there
    run_seconds(3600 + 3);
    $display("after an hour %0d %0d:%0d", hour, minutes, seconds);
    start_stop = 0; repeat (10) @(posedge clk);
    // reset and a short run again
    reset = 1; @(posedge clk); reset = 0;
    run_seconds(2);
    start_stop = 0; repeat (5) @(posedge clk);
    $finish;
  end
endmodule
