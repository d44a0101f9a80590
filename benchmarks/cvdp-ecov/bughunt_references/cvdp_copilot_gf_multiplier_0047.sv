// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam WIDTH = 32;
  reg reset, enable, pass_through;
  reg [WIDTH-1:0] a, b;
  wire [7:0] result;
  wire valid_result, ready, error_flag;

  gf_mac #(.WIDTH(WIDTH)) dut (.reset(reset), .enable(enable), .pass_through(pass_through), .a(a), .b(b),
    .result(result), .valid_result(valid_result), .ready(ready), .error_flag(error_flag));

  // Model of the spec: with enable (and out of reset) result is a[7:0] in pass-through, else the XOR of the
  // GF(2^8) products of the byte lanes of a and b (the AES field, x^8 + x^4 + x^3 + x + 1); result is 0 when
  // disabled or in reset; valid_result and ready are 1 exactly with enable out of reset; error_flag is 0
  // (WIDTH is a multiple of 8). Inputs change every 10 time units from 0: checked in the middle of each hold.
  function automatic logic [7:0] gmul(input logic [7:0] x, input logic [7:0] y);
    logic [7:0] p = 0;
    for (int i = 0; i < 8; i++) begin
      if (y[i]) p ^= x;
      x = x[7] ? ((x << 1) ^ 8'h1B) : (x << 1);
    end
    return p;
  endfunction
  function automatic logic [10:0] expect_out();
    logic [7:0] r = 0;
    if (reset || !enable) return 11'b0;
    if (pass_through) r = a[7:0];
    else for (int j = 0; j < WIDTH / 8; j++) r ^= gmul(a[j*8 +: 8], b[j*8 +: 8]);
    return {r, 1'b1, 1'b1, 1'b0};
  endfunction
  initial begin
    #5;
    forever begin
      if ({result, valid_result, ready, error_flag} !== expect_out())
        $fatal(1, "a=%h b=%h en=%b pt=%b rst=%b: result %h v %b r %b e %b, expected %h", a, b, enable,
               pass_through, reset, result, valid_result, ready, error_flag, expect_out());
      #10;
    end
  end

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
