// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
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

  // Scoreboard of the spec: the binary tree registers the inputs and each of its $clog2(NumSrc) levels, so
  // the result of the inputs sampled at a rising edge shows after the $clog2(NumSrc)-th edge after it:
  // max_valid_o = some input valid, and then max_value_o = the largest valid value, max_idx_o its index
  // (the lowest index on a tie). The asynchronous reset clears the tree (zeros come out until it refills).
  // Inputs change on falling edges.
  localparam LAT = $clog2(NumSrc);
  typedef struct { bit known; logic v; logic [Width-1:0] m; logic [SrcWidth-1:0] i; } res_t;
  res_t m_pipe [$];
  bit m_on = 0;
  function automatic res_t best(input logic [Width*NumSrc-1:0] vals, input logic [NumSrc-1:0] vld);
    res_t r = '{1, 0, '0, '0};
    for (int k = 0; k < NumSrc; k++)
      if (vld[k] && (!r.v || vals[k*Width +: Width] > r.m)) begin
        r.v = 1; r.m = vals[k*Width +: Width]; r.i = SrcWidth'(k);
      end
    return r;
  endfunction
  task automatic m_reset();
    m_pipe = {};
    repeat (LAT) m_pipe.push_back('{1, 0, '0, '0});
    m_on = 1;
  endtask
  always @(negedge rst_ni) m_reset();
  initial #0.1 if (!rst_ni) m_reset();  // no falling edge is seen at time 0
  always @(posedge clk_i) if (rst_ni && m_on) begin
    m_pipe.push_back(best(values_i, valid_i));
    #0.5;
    if (rst_ni) begin
      automatic res_t due = m_pipe.pop_front();
      if (max_valid_o !== due.v || (due.v && {max_value_o, max_idx_o} !== {due.m, due.i}) ||
          (!due.v && due.m == 0 && {max_value_o, max_idx_o} !== '0 && m_pipe.size() < LAT))
        $fatal(1, "%0t: valid %b max %h idx %0d, expected %b %h %0d", $time, max_valid_o, max_value_o, max_idx_o,
               due.v, due.m, due.i);
    end
  end

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
    #2 rst_ni = 0; #10 rst_ni = 1;
    apply(seq(0), '1, 6);
    $finish;
  end
endmodule
