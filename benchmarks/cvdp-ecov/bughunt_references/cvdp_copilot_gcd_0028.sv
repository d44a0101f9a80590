// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam WIDTH = 32;
  logic clk = 0, rst, go;
  logic [WIDTH-1:0] A, B, C;
  logic [WIDTH-1:0] OUT;
  logic done;

  gcd_3_ip #(.WIDTH(WIDTH), .SIGNED_EN(1)) dut (.clk(clk), .rst(rst), .A(A), .B(B), .C(C), .go(go),
    .OUT(OUT), .done(done));

  always #5 clk = ~clk;

  // Scoreboard of the spec: go (one cycle) starts a computation on A, B and C (signed); done pulses for one
  // cycle with OUT = the greatest common divisor of their magnitudes (checked where none is 0, for which the
  // spec gives no result); the synchronous reset clears OUT and done. Inputs change on falling edges.
  function automatic logic [WIDTH-1:0] mag(input logic [WIDTH-1:0] v);
    return v[WIDTH-1] ? -v : v;
  endfunction
  function automatic logic [WIDTH-1:0] gcd2(input logic [WIDTH-1:0] a, input logic [WIDTH-1:0] b);
    while (b != 0) begin automatic logic [WIDTH-1:0] t = a % b; a = b; b = t; end
    return a;
  endfunction
  logic [WIDTH-1:0] m_want;
  bit m_busy = 0, m_checkable = 0, m_prev_done = 0;
  always @(posedge clk) begin
    automatic bit started = go && !rst;
    automatic logic [WIDTH-1:0] a = A, b = B, c = C;
    automatic bit r = rst;
    #0.5;
    if (r) begin
      m_busy = 0; m_prev_done = 0;
      if (OUT !== '0 || done !== 1'b0) $fatal(1, "%0t: reset did not clear OUT and done", $time);
    end else begin
      if (done && m_prev_done) $fatal(1, "%0t: done held for more than one cycle", $time);
      if (done) begin
        if (!m_busy) $fatal(1, "%0t: done without a computation", $time);
        if (m_checkable && OUT !== m_want) $fatal(1, "%0t: OUT %0d, expected %0d", $time, OUT, m_want);
        m_busy = 0;
      end
      if (started) begin
        m_busy = 1;
        m_checkable = a != 0 && b != 0 && c != 0;
        m_want = gcd2(gcd2(mag(a), mag(b)), mag(c));
      end
      m_prev_done = done;
    end
  end

  task automatic do_reset();
    @(negedge clk); rst = 1; go = 0; @(negedge clk); @(negedge clk); rst = 0;
  endtask

  // one computation; bounded wait (subtractive Euclid can be slow for lopsided inputs)
  task automatic gcd3(input logic [WIDTH-1:0] a, input logic [WIDTH-1:0] b, input logic [WIDTH-1:0] c);
    int guard = 0;
    @(negedge clk); A = a; B = b; C = c; go = 1;
    @(negedge clk); go = 0;
    while (!done && guard < 4000) begin @(negedge clk); guard++; end
    if (!done) begin $display("timeout for %h %h %h", a, b, c); do_reset(); end
    else $display("gcd(%0d,%0d,%0d) = %0d", $signed(a), $signed(b), $signed(c), OUT);
    @(negedge clk);
  endtask

  // multiples of a common factor keep the subtraction count small
  task automatic scaled(input logic [WIDTH-1:0] k, input int x, input int y, input int z, input bit neg = 0);
    logic [WIDTH-1:0] a = k * x, b = k * y, c = k * z;
    if (neg) begin a = -a; c = -c; end
    gcd3(a, b, c);
  endtask

  initial begin
    rst = 1; go = 0; A = 0; B = 0; C = 0;
    repeat (2) @(negedge clk); rst = 0;
    gcd3(12, 18, 24); gcd3(5, 5, 5); gcd3(7, 13, 19); gcd3(0, 0, 0); gcd3(0, 9, 6); gcd3(9, 0, 6);
    gcd3(8, 12, 0); gcd3(77, 0, 0); gcd3(0, 0, 91); gcd3(-12, 18, -30); gcd3(1, 1, 2); gcd3(100, 75, 50); gcd3(21, 14, 35);
    gcd3(32'h8000_0000, 32'h8000_0000, 32'h8000_0000);
    gcd3(32'h8000_0000, 32'h4000_0000, 32'hC000_0000);
    gcd3(32'h7FFF_FFFF, 32'h7FFF_FFFF, 32'h7FFF_FFFF);
    gcd3(32'hFFFF_FFFF, 32'h0000_0001, 32'hFFFF_FFFF);
    scaled(32'h3FFF_FFFF, 2, 1, 2); scaled(32'h1555_5555, 3, 5, 4, 1); scaled(32'h0AAA_AAAB, 7, 11, 5);
    for (int k = 0; k < 120; k++)
      scaled(($urandom() >> ($urandom() % 8)) / 16, 1 + $urandom() % 15, 1 + $urandom() % 15,
             1 + $urandom() % 15, $urandom() % 2);
    // fully random signed triples (bounded wait handles slow cases)
    for (int k = 0; k < 40; k++) gcd3($urandom(), $urandom(), $urandom());
    // synchronous reset mid-computation (inputs held, no new go before done)
    @(negedge clk); A = 1000; B = 7; C = 3; go = 1; @(negedge clk); go = 0;
    repeat (11) @(negedge clk);
    do_reset();
    gcd3(48, 36, 60);
    $finish;
  end
endmodule
