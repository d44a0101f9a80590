// SPDX-License-Identifier: Apache-2.0
// Reference testbench for rr_arbiter: exhaustive request patterns, locking and starvation,
// with the grant checked against a behavioural model every cycle.
module tb;
  logic diag;
  logic clk = 0, rst_n = 0;
  logic [3:0] req = 0, lock = 0, gnt;
  logic gnt_valid, starved;
  logic [1:0] gnt_id, starved_id;
  logic [3:0] m_gnt;
  logic [1:0] m_last;
  int errors = 0;

  rr_arbiter u_arb (.*);

  always #5 clk = ~clk;

  function automatic logic [3:0] model_next(input logic [3:0] r, input logic [3:0] l,
                                            input logic [3:0] g, input logic [1:0] last);
    if (|(g & r & l)) return g;
    for (int i = int'(last) + 1; i < 4; i++) if (r[i]) return 4'(1 << i);
    for (int i = 0; i < 4; i++) if (r[i]) return 4'(1 << i);
    return 4'b0;
  endfunction

  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      m_gnt <= 0; m_last <= 2'd3;
    end else begin
      automatic logic [3:0] n = model_next(req, lock, m_gnt, m_last);
      m_gnt <= n;
      if (!(|(m_gnt & req & lock)) && n != 0)
        for (int i = 0; i < 4; i++) if (n[i]) m_last <= 2'(i);
    end
  end

  always @(negedge clk) if (rst_n) begin
    if (gnt !== m_gnt || gnt_valid !== (m_gnt != 0)) begin
      errors++; $error("gnt=%b expected %b", gnt, m_gnt);
    end
    if (gnt_valid && gnt !== 4'(1 << gnt_id)) begin
      errors++; $error("gnt_id=%0d does not match gnt=%b", gnt_id, gnt);
    end
  end

  task automatic cyc(input logic [3:0] r, input logic [3:0] l = 0, input int n = 1);
    req = r; lock = l;
    repeat (n) @(posedge clk);
    #1;
  endtask

  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1; #1;
    // Every request pattern from every "last winner" position.
    for (int last = 0; last < 4; last++) begin
      for (int p = 0; p < 16; p++) begin
        cyc(4'(1 << last));
        cyc(4'(p));
      end
    end
    cyc(4'b1111, 0, 9);                 // full rotation
    cyc(4'b0000, 0, 2);
    // Locking: requester 2 holds the bus while 0 starves, then 3 holds while 1 starves.
    cyc(4'b0100);
    cyc(4'b0101, 4'b0100, 15);
    if (!starved || starved_id != 0) begin errors++; $error("starvation of 0 not flagged"); end
    cyc(4'b0001, 0, 2);
    cyc(4'b1000);
    cyc(4'b1010, 4'b1000, 15);
    cyc(4'b1110, 4'b1000, 3);
    cyc(4'b0110, 4'b0000, 4);
    cyc(4'b0000, 0, 2);
    cyc(4'b0010);
    cyc(4'b0110, 4'b0010, 15);
    cyc(4'b1000, 0, 2);
    cyc(4'b1000);
    cyc(4'b1100, 4'b1000, 15);
    cyc(4'b0001);
    cyc(4'b1001, 4'b0001, 15);
    cyc(4'b1111, 4'b1111, 4);         // lock dropped with req: rotation resumes
    cyc(4'b1011, 4'b1111, 4);
    // Random traffic.
    repeat (300) cyc(4'($urandom), 4'($urandom) & 4'($urandom));
    cyc(4'b0000, 0, 2);
    // Diagnostic unlock (spec): K = 59 and K = A5 unlock; K = 11 fails at step 2, then at step 3.
    cyc(4'h9, 4'h5); cyc(4'h6, 4'hA); cyc(4'hA, 4'h5); cyc(4'h5, 4'hA);
    cyc(4'b0000, 0, 2);
    cyc(4'h5, 4'hA); cyc(4'hA, 4'h5); cyc(4'h6, 4'hA); cyc(4'h9, 4'h5);
    cyc(4'b0000, 0, 2);
    cyc(4'h0, 4'h1); cyc(4'h1, 4'h1); cyc(4'hE, 4'hE); cyc(4'h0, 4'h0);
    cyc(4'b0000, 0, 2);
    cyc(4'h1, 4'h1); cyc(4'hE, 4'hE); cyc(4'h2, 4'h1); cyc(4'h0, 4'h0);
    cyc(4'b0000, 0, 2);
    if (!diag) begin errors++; $error("diag not set by the key"); end
    #1 rst_n = 0; #1 rst_n = 1;
    cyc(4'b1001, 0, 3);
    if (errors == 0) $display("PASS"); else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
