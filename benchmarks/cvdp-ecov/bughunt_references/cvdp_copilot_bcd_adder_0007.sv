// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  reg  [3:0] a, b;
  wire [3:0] sum;
  wire       cout;

  bcd_adder uut (.a(a), .b(b), .sum(sum), .cout(cout));

  // Model of the spec: binary sum a + b; when it exceeds 9 the BCD correction adds 6 and cout is 1.
  // Inputs change every 5 time units from 0: checked in the middle of each hold.
  function automatic logic [4:0] bcd(input logic [3:0] x, input logic [3:0] y);
    automatic logic [4:0] s = x + y;
    return s > 9 ? {1'b1, 4'(s[3:0] + 4'd6)} : {1'b0, s[3:0]};
  endfunction
  initial begin
    #2.5;
    forever begin
      if ({cout, sum} !== bcd(a, b)) $fatal(1, "%0d + %0d: cout %b sum %h, expected %b", a, b, cout, sum, bcd(a, b));
      #5;
    end
  end

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
