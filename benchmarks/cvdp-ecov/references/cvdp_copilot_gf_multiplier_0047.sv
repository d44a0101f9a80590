`timescale 1ns/1ps
module tb;
  localparam WIDTH = 32;
  reg reset, enable, pass_through;
  reg [WIDTH-1:0] a, b;
  wire [7:0] result;
  wire valid_result, ready, error_flag;

  gf_mac #(.WIDTH(WIDTH)) dut (.reset(reset), .enable(enable), .pass_through(pass_through), .a(a), .b(b),
    .result(result), .valid_result(valid_result), .ready(ready), .error_flag(error_flag));

  task automatic apply(input [WIDTH-1:0] x, input [WIDTH-1:0] y, input bit en = 1, input bit pt = 0, input bit rst = 0);
    a = x; b = y; enable = en; pass_through = pt; reset = rst;
    #10 $display("a=%h b=%h en=%b pt=%b rst=%b -> %h v=%b r=%b e=%b", a, b, en, pt, rst, result,
                 valid_result, ready, error_flag);
  endtask

  initial begin
    apply(0, 0, 0, 0, 1);
    apply(32'h0102_0408, 32'h0101_0101);
    apply(32'hFFFF_FFFF, 32'hFFFF_FFFF);
    apply(32'h8080_8080, 32'h0202_0202);
    apply(32'h1B1B_1B1B, 32'h8080_8080);
    apply(32'h5353_5353, 32'hCACA_CACA);        // inverse pair 0x53 * 0xCA = 1
    // each byte lane: every A byte against walking B bits
    for (int lane = 0; lane < 4; lane++)
      for (int x = 0; x < 256; x += 3)
        for (int bit_ = 0; bit_ < 8; bit_++)
          apply(x << (8 * lane), (1 << bit_) << (8 * lane));
    // exhaustive 8-bit products, replicated across all four lanes
    for (int x = 0; x < 256; x++)
      for (int y = 0; y < 256; y += 17)
        apply({4{x[7:0]}}, {4{y[7:0]}});
    // passthrough, disable, reset combinations
    apply(32'hDEAD_BEEF, 32'h1234_5678, 1, 1);
    apply(32'h0000_00FF, 32'h1234_5678, 1, 1);
    apply(32'hDEAD_BEEF, 32'h1234_5678, 0, 1);
    apply(32'hDEAD_BEEF, 32'h1234_5678, 0, 0);
    apply(32'hDEAD_BEEF, 32'h1234_5678, 1, 0, 1);
    apply(32'hDEAD_BEEF, 32'h1234_5678, 1, 1, 1);
    // random
    repeat (500) apply($urandom(), $urandom(), $urandom() % 4 != 0, $urandom() % 4 == 0, $urandom() % 16 == 0);
    $finish;
  end
endmodule
