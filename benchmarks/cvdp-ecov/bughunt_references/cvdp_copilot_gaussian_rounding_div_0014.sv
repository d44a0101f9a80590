// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam WIDTH = 32;
  reg clk = 0, rst_n, start;
  reg [WIDTH-1:0] dividend, divisor;
  wire [WIDTH-1:0] quotient, remainder;
  wire valid;

  divider #(.WIDTH(WIDTH)) dut (.clk(clk), .rst_n(rst_n), .start(start), .dividend(dividend),
    .divisor(divisor), .quotient(quotient), .remainder(remainder), .valid(valid));

  always #5 clk = ~clk;

  // Scoreboard of the spec: start in IDLE latches dividend and divisor; valid rises WIDTH + 2 cycles after
  // start was raised (one edge after the FSM left IDLE plus WIDTH iterations plus DONE) with quotient and
  // remainder of the unsigned division, holds while start stays high, and drops one cycle after the FSM saw
  // start low and returned to IDLE; quotient and remainder hold until the next result. rst_n (asynchronous) clears all.
  // Inputs change on falling edges: read at rising ones.
  logic [WIDTH-1:0] m_a, m_b, m_q = 0, m_r = 0;
  int m_state = 0, m_count = 0;  // 0 idle, 1 busy/done waiting for valid, 2 valid, 3 idle again (valid still up)
  logic m_valid = 0;
  always @(posedge clk) if (rst_n) begin
    automatic logic s = start;
    automatic logic [WIDTH-1:0] a = dividend, b = divisor;
    case (m_state)
      0, 3: begin
           m_valid = 0;
           if (s) begin m_a = a; m_b = b; m_state = 1; m_count = 0; end else m_state = 0;
         end
      1: begin
           m_count++;
           if (m_count == WIDTH + 1) begin m_q = m_a / m_b; m_r = m_a % m_b; m_valid = 1; m_state = s ? 2 : 3; end
         end
      2: if (!s) m_state = 3;  // back to IDLE; valid drops on the next edge
    endcase
    #0.5;
    if (rst_n && {valid, quotient, remainder} !== {m_valid, m_q, m_r})
      $fatal(1, "%0t: %0d / %0d: valid %b q %0d r %0d, expected %b %0d %0d", $time, m_a, m_b, valid, quotient,
             remainder, m_valid, m_q, m_r);
  end
  always @(negedge rst_n) begin
    m_state = 0; m_valid = 0; m_q = 0; m_r = 0;
    #0.5 if ({valid, quotient, remainder} !== '0) $fatal(1, "%0t: reset did not clear the outputs", $time);
  end

  task automatic divide(input [WIDTH-1:0] a, input [WIDTH-1:0] b, input int hold = 0);
    int guard = 0;
    @(negedge clk); dividend = a; divisor = b; start = 1;
    @(negedge clk); if (hold == 0) start = 0;
    while (!valid && guard < 3 * WIDTH) begin @(negedge clk); guard++; end
    repeat (hold) @(negedge clk);      // keep start high in DONE
    start = 0;
    @(negedge clk); @(negedge clk);
    $display("%0d / %0d = %0d r %0d", a, b, quotient, remainder);
  endtask

  initial begin
    rst_n = 0; start = 0; dividend = 0; divisor = 1;
    repeat (2) @(negedge clk); rst_n = 1;
    divide(0, 1); divide(1, 1); divide(100, 7); divide(7, 100);
    divide(32'hFFFF_FFFE, 1); divide(32'hFFFF_FFFE, 32'h7FFF_FFFE); divide(32'hFFFF_FFFE, 3);
    divide(32'h8000_0000, 32'h4000_0000); divide(32'h7FFF_FFFF, 32'h1234_5678, 3);
    divide(32'hAAAA_AAAA, 32'h5555_5555); divide(32'h5555_5555, 32'h2AAA_AAAA);
    divide(12345, 12345); divide(12344, 12345);
    for (int i = 0; i < WIDTH - 1; i++) divide($urandom(), 32'h1 << i);
    for (int k = 0; k < 150; k++) begin
      logic [WIDTH-1:0] b;
      b = ($urandom() % 2) ? ($urandom() & 32'h7FFF_FFFE) : ($urandom() % 1000);
      if (b == 0) b = 1;
      divide($urandom(), b, $urandom() % 3);
    end
    divide(5, 3);
    // back-to-back: start held high across DONE
    @(negedge clk); dividend = 1000; divisor = 3; start = 1;
    repeat (2 * WIDTH + 10) @(negedge clk); start = 0; repeat (3) @(negedge clk);
    // asynchronous reset mid-division
    @(negedge clk); dividend = 32'hDEAD_BEEF; divisor = 17; start = 1; @(negedge clk); start = 0;
    repeat (10) @(negedge clk);
    #2 rst_n = 0; #5 rst_n = 1;
    divide(99, 9);
    $finish;
  end
endmodule
