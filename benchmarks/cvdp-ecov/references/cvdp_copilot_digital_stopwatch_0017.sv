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
