`timescale 1ns/1ps
// ECov bug-hunt reference: ECov's coverage reference (same stimulus) checked against the spec's conversion,
// B[WIDTH-1] = G[WIDTH-1], B[i] = B[i+1] ^ G[i].
module tb;
  localparam WIDTH = 4;
  logic [WIDTH-1:0] gray_in;
  logic [WIDTH-1:0] binary_out;

  gray_to_binary #(.WIDTH(WIDTH)) uut (.gray_in(gray_in), .binary_out(binary_out));

  function automatic logic [WIDTH-1:0] model(input logic [WIDTH-1:0] g);
    logic [WIDTH-1:0] b;
    b[WIDTH-1] = g[WIDTH-1];
    for (int i = WIDTH - 2; i >= 0; i--) b[i] = b[i+1] ^ g[i];
    return b;
  endfunction

  task automatic apply(input logic [WIDTH-1:0] g);
    gray_in = g; #10 $display("gray=%b bin=%b", gray_in, binary_out);
    if (binary_out !== model(gray_in)) $fatal(1, "gray %b: binary_out %b, expected %b", gray_in, binary_out, model(gray_in));
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
