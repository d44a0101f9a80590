`timescale 1ns/1ps
module tb;
  reg        clk = 0;
  reg        reset;
  reg  [4:0] data;
  wire       ATTN_CLK, ATTN_DATA, ATTN_LE;

  Attenuator uut (.clk(clk), .reset(reset), .data(data),
                  .ATTN_CLK(ATTN_CLK), .ATTN_DATA(ATTN_DATA), .ATTN_LE(ATTN_LE));

  always #5 clk = ~clk;

  always @(posedge clk)
    if (ATTN_LE) $display("%0t latch", $time);

  task automatic send(input [4:0] v, input int cycles);
    data = v;
    repeat (cycles < 2 ? 2 : cycles) @(posedge clk);  // each value held at least 2 cycles
  endtask

  initial begin
    reset = 1; data = 5'b0;
    repeat (4) @(posedge clk);
    reset = 0;
    repeat (4) @(posedge clk);
    // no change: stay idle
    send(5'b00000, 10);
    // full patterns, enough time for load -> shift x6 -> latch
    send(5'b11111, 24);
    send(5'b00000, 24);
    send(5'b10101, 24);
    send(5'b01010, 24);
    send(5'b10000, 24);
    send(5'b00001, 24);
    send(5'b11111, 24);
    send(5'b11111, 10);   // repeated identical value
    // quick consecutive changes while shifting
    send(5'b00110, 3);
    send(5'b11001, 3);
    send(5'b01101, 30);
    // random values with varying gaps
    for (int i = 0; i < 60; i++) send($urandom() % 32, 1 + ($urandom() % 28));
    // reset in the middle of a shift
    send(5'b10110, 8);
    reset = 1; repeat (3) @(posedge clk); reset = 0;
    send(5'b01001, 30);
    $finish;
  end
endmodule
