// ECov bug-hunt reference: ECov's coverage reference (same stimulus), each sum checked against a + b + carry_in.
`timescale 1ns/1ps
module tb_brent_kung_adder;
  logic [31:0] a, b;
  logic        carry_in;
  logic [31:0] sum;
  logic        carry_out;

  brent_kung_adder uut (.a(a), .b(b), .carry_in(carry_in), .sum(sum), .carry_out(carry_out));

  task automatic apply(input logic [31:0] x, input logic [31:0] y, input logic c);
    a = x; b = y; carry_in = c;
    #5 $display("a=%h b=%h cin=%b -> sum=%h cout=%b", a, b, carry_in, sum, carry_out);
    if ({carry_out, sum} !== 33'(a) + 33'(b) + 33'(carry_in))
      $fatal(1, "%h + %h + %b: {carry_out, sum} = %b_%h, expected %h", a, b, carry_in, carry_out, sum,
             33'(a) + 33'(b) + 33'(carry_in));
  endtask

  initial begin
    apply(32'h0, 32'h0, 1'b0);
    apply(32'h7FFFFFFF, 32'h7FFFFFFF, 1'b0);
    apply(32'h80000000, 32'h80000000, 1'b0);
    apply(32'h0000FFFF, 32'hFFFF0000, 1'b0);
    apply(32'hFFFFFFFF, 32'hFFFFFFFF, 1'b1);
    apply(32'hAAAAAAAA, 32'h55555555, 1'b0);
    apply(32'hF0F0F0F0, 32'h0F0F0F0F, 1'b0);
    apply(32'h11111111, 32'h22222222, 1'b1);
    apply(32'h00000001, 32'h00000001, 1'b1);
    apply(32'hFFFFFFFF, 32'h00000000, 1'b1);
    apply(32'h00000000, 32'hFFFFFFFF, 1'b0);
    apply(32'hFFFFFFFF, 32'h00000001, 1'b0);
    // walking generate / propagate patterns
    for (int i = 0; i < 32; i++) begin
      apply(32'h1 << i, 32'h1 << i, 1'b0);
      apply(32'h1 << i, 32'h0, 1'b1);
      apply(~(32'h1 << i), 32'h0, 1'b1);
      apply(~(32'h1 << i), 32'h1 << i, 1'b1);
      apply(32'hFFFFFFFF >> i, 32'h1, 1'b0);
    end
    // random, dense and sparse
    for (int i = 0; i < 400; i++) begin
      logic [31:0] x, y;
      x = $urandom(); y = $urandom();
      case (i % 4)
        1: begin x = x & $urandom(); y = y & $urandom(); end
        2: begin x = x | $urandom(); y = ~x ^ (32'h1 << (i % 32)); end
        3: y = ~x;
        default: ;
      endcase
      apply(x, y, $urandom() & 1);
    end
    apply(32'h0, 32'h0, 1'b0);
    $finish;
  end
endmodule
