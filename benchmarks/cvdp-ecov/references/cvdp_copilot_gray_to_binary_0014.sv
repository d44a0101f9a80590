`timescale 1ns/1ps
module tb;
  localparam WIDTH = 4;
  logic [WIDTH-1:0] gray_in;
  logic [WIDTH-1:0] binary_out;

  gray_to_binary #(.WIDTH(WIDTH)) uut (.gray_in(gray_in), .binary_out(binary_out));

  task automatic apply(input logic [WIDTH-1:0] g);
    gray_in = g; #10 $display("gray=%b bin=%b", gray_in, binary_out);
  endtask

  initial begin
    // fixed values
    apply(4'b0000); apply(4'b0001); apply(4'b0011); apply(4'b0110); apply(4'b1111);
    apply(4'b1000); apply(4'b1100); apply(4'b1010); apply(4'b0101);
    // one-bit-change transitions
    apply(4'b0001); apply(4'b0000); apply(4'b0011); apply(4'b0010); apply(4'b0111); apply(4'b0100);
    // walk the Gray sequence up and down
    for (int i = 0; i < 16; i++) apply(i ^ (i >> 1));
    for (int i = 15; i >= 0; i--) apply(i ^ (i >> 1));
    // every code, then random
    for (int i = 0; i < 16; i++) apply(i);
    repeat (50) apply($urandom());
    $finish;
  end
endmodule
