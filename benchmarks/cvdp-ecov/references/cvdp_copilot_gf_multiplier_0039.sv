`timescale 1ns/1ps
module tb;
  reg  [3:0] A, B;
  wire [3:0] result;

  gf_multiplier uut (.A(A), .B(B), .result(result));

  initial begin
    A = 0; B = 0; #10;
    // every pair, row by row and column by column
    for (int a = 0; a < 16; a++)
      for (int b = 0; b < 16; b++) begin
        A = a; B = b; #10 $display("%h * %h = %h", A, B, result);
      end
    for (int b = 15; b >= 0; b--)
      for (int a = 15; a >= 0; a--) begin
        A = a; B = b; #10;
      end
    // random pairs
    repeat (100) begin A = $urandom(); B = $urandom(); #10; end
    $finish;
  end
endmodule
