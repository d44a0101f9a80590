`timescale 1ns/1ps
module tb;
  reg  [3:0] a, b;
  wire [3:0] sum;
  wire       cout;

  bcd_adder uut (.a(a), .b(b), .sum(sum), .cout(cout));

  initial begin
    a = 0; b = 0; #5;
    // every pair of BCD digits
    for (int i = 0; i < 10; i++)
      for (int j = 0; j < 10; j++) begin
        a = i; b = j; #5 $display("%0d + %0d = %b%h", a, b, cout, sum);
      end
    // all 4-bit codes, including non-BCD ones
    for (int i = 0; i < 16; i++)
      for (int j = 0; j < 16; j++) begin
        a = i; b = j; #5;
        a = 0; b = 0; #5;
      end
    for (int i = 15; i >= 0; i--)
      for (int j = 0; j < 16; j++) begin
        a = i; b = j; #5;
      end
    $finish;
  end
endmodule
