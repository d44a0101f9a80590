// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with the checks its spec allows.
`timescale 1ns/1ps
module iir_filt_tb;
  reg clk = 0;
  reg reset;
  reg signed [15:0] in_1, in_2, in_3;
  reg [1:0] filter_select;
  wire signed [15:0] out_1, out_2, out_3;

  iir_filt uut (.clk(clk), .reset(reset), .in_1(in_1), .in_2(in_2), .in_3(in_3),
                .filter_select(filter_select), .out_1(out_1), .out_2(out_2), .out_3(out_3));

  always #5 clk = ~clk;

  // Checks from the spec, which gives no filter coefficients: the asynchronous active-high reset clears the
  // filter state and the outputs (zero while reset is held and until the first clock edge after it), and
  // the outputs are registered: they change only at a rising clock edge or a reset.
  logic signed [15:0] held_1, held_2, held_3;
  always @(posedge clk) begin
    #1;
    held_1 = out_1; held_2 = out_2; held_3 = out_3;
  end
  always @(negedge clk) begin
    if (reset && {out_1, out_2, out_3} !== 48'h0)
      $fatal(1, "%0t: outputs %h %h %h under reset, expected 0", $time, out_1, out_2, out_3);
    if (!reset && $time > 30 && {out_1, out_2, out_3} !== {held_1, held_2, held_3})
      $fatal(1, "%0t: outputs changed between clock edges", $time);
  end
  always @(posedge reset) begin
    #0.5;
    if ({out_1, out_2, out_3} !== 48'h0) $fatal(1, "%0t: outputs not cleared by the asynchronous reset", $time);
  end

  task automatic drive(input [15:0] a, input [15:0] b, input [15:0] c, input [1:0] sel, input int n);
    in_1 = a; in_2 = b; in_3 = c; filter_select = sel;
    repeat (n) @(posedge clk);
    #1;
  endtask

  initial begin
    reset = 1; in_1 = 0; in_2 = 0; in_3 = 0; filter_select = 0;
    #20 reset = 0;
    // edge values under each filter (including the unused select value)
    for (int s = 0; s < 4; s++) begin
      drive(16'h7FFF, 16'h8000, 16'hAAAA, s, 3);
      drive(16'h8000, 16'h7FFF, 16'h5555, s, 3);
      drive(16'h0000, 16'hFFFF, 16'h0001, s, 3);
      drive(16'hFFFF, 16'h0000, 16'hAAAA, s, 3);
    end
    // step response and settling
    for (int s = 0; s < 4; s++) begin
      drive(16'h1000, 16'h1000, 16'h1000, s, 8);
      drive(16'h0000, 16'h0000, 16'h0000, s, 8);
    end
    // coefficient transitions with a constant input
    for (int k = 0; k < 8; k++) drive(16'h0123, 16'hFEDC, 16'h4000, k % 4, 4);
    // dynamic switching every 10 cycles
    for (int k = 0; k < 20; k++) begin
      filter_select = $urandom() % 4;
      repeat (10) begin
        in_1 = $urandom(); in_2 = $urandom(); in_3 = $urandom();
        @(posedge clk); #1;
      end
    end
    // stress: random everything
    for (int k = 0; k < 500; k++)
      drive($urandom(), $urandom(), $urandom(), $urandom() % 4, 1);
    // impulse
    drive(16'h0001, 16'h0001, 16'h0001, 2'b00, 1);
    drive(16'h0000, 16'h0000, 16'h0000, 2'b00, 6);
    // asynchronous reset mid-stream
    drive(16'h7FFF, 16'h7FFF, 16'h7FFF, 2'b01, 3);
    #2 reset = 1; #10 reset = 0;
    drive(16'h2222, 16'h3333, 16'h4444, 2'b10, 5);
    $finish;
  end
endmodule
