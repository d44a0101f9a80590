`timescale 1ns/1ps
module tb;
  reg clk = 0, reset;
  reg [7:0] req;
  wire [7:0] grant;

  fixed_priority_arbiter dut (.clk(clk), .reset(reset), .req(req), .grant(grant));

  always #5 clk = ~clk;

  task automatic drive(input [7:0] r);
    @(negedge clk); req = r; repeat (2) @(posedge clk); #1 $display("req=%b grant=%b", req, grant);
  endtask

  initial begin
    reset = 1; req = 0;
    repeat (2) @(posedge clk); #1 reset = 0;
    drive(8'h00);
    // single requests, each followed by none
    for (int i = 0; i < 8; i++) begin drive(8'h1 << i); drive(8'h00); end
    // multiple requests: highest priority (lowest index) wins
    for (int i = 0; i < 8; i++) drive(8'hFF << i);
    for (int i = 7; i >= 0; i--) drive(8'h80 | (8'h1 << i));
    // every pattern
    for (int v = 0; v < 256; v++) drive(v);
    // reset during active requests
    drive(8'hA5);
    #2 reset = 1; #10 reset = 0;
    drive(8'h40); drive(8'h00);
    $finish;
  end
endmodule
