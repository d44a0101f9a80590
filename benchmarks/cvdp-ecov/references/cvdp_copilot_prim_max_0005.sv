`timescale 1ns/1ps
module tb;
  localparam NumSrc = 8, Width = 8, SrcWidth = $clog2(NumSrc);
  logic clk_i = 0, rst_ni;
  logic [Width*NumSrc-1:0] values_i;
  logic [NumSrc-1:0] valid_i;
  wire [Width-1:0] max_value_o;
  wire [SrcWidth-1:0] max_idx_o;
  wire max_valid_o;

  prim_max_find #(.NumSrc(NumSrc), .Width(Width)) dut (.clk_i(clk_i), .rst_ni(rst_ni), .values_i(values_i),
    .valid_i(valid_i), .max_value_o(max_value_o), .max_idx_o(max_idx_o), .max_valid_o(max_valid_o));

  always #5 clk_i = ~clk_i;

  task automatic apply(input [Width*NumSrc-1:0] v, input [NumSrc-1:0] vld, input int hold = 1);
    @(negedge clk_i); values_i = v; valid_i = vld;
    repeat (hold) @(negedge clk_i);
  endtask

  function automatic [Width*NumSrc-1:0] seq(input bit up);
    for (int i = 0; i < NumSrc; i++) seq[i*Width +: Width] = up ? (i + 1) * 30 : (NumSrc - i) * 30;
  endfunction

  initial begin
    rst_ni = 0; values_i = 0; valid_i = 0;
    repeat (3) @(negedge clk_i); rst_ni = 1;
    apply({NumSrc{8'hFF}}, '0, 4);                           // all invalid
    for (int i = 0; i < NumSrc; i++) apply({$urandom(), $urandom()}, 8'h1 << i, 4);   // single valid
    for (int i = 0; i < NumSrc; i++) apply({NumSrc{8'hFF}}, 8'h1 << i, 4);
    apply(seq(1), '1, 4); apply(seq(0), '1, 4);              // increasing / decreasing
    apply({NumSrc{8'h80}}, '1, 4);                           // all equal: lowest index wins
    apply({8'hFF, {NumSrc-2{8'h10}}, 8'hFF}, '1, 4);         // max at first and last index
    apply({8'hFF, {NumSrc-1{8'h00}}}, '1, 4); apply({{NumSrc-1{8'h00}}, 8'hFF}, '1, 4);
    apply(seq(1), 8'h55, 4); apply(seq(1), 8'hAA, 4);        // alternating valid
    apply(seq(0), 8'h55, 4); apply(seq(0), 8'hAA, 4);
    // every valid mask with two value sets
    for (int m = 0; m < 256; m++) begin apply(seq(m % 2), m); apply({$urandom(), $urandom()}, m); end
    // pairs: each pair of sources with each order of values
    for (int a = 0; a < NumSrc; a++)
      for (int b = 0; b < NumSrc; b++) begin
        logic [Width*NumSrc-1:0] v = {$urandom(), $urandom()};
        v[a*Width +: Width] = 8'hF0; v[b*Width +: Width] = 8'h0F;
        apply(v, (8'h1 << a) | (8'h1 << b));
        apply(~v, (8'h1 << a) | (8'h1 << b));
      end
    // random
    repeat (500) apply({$urandom(), $urandom()}, $urandom());
    repeat (200) apply({$urandom(), $urandom()} & {NumSrc{8'h0F}}, $urandom());
    // reset during operation
    apply(seq(1), '1);
    #2 rst_ni = 0; #20 rst_ni = 1;                 // held two cycles (Reset Handling)
    apply(seq(0), '1, 6);
    $finish;
  end
endmodule
