// SPDX-License-Identifier: Apache-2.0
// Bug-hunt reference for updown_counter: ref_tb.sv (same stimulus) with the diagnostic unlock checked too.
module tb;
  logic diag;
  logic clk = 0, rst_n = 0;
  logic en = 0, up = 0, load = 0, sat = 0;
  logic [7:0] load_val = 0;
  logic [7:0] count;
  logic at_max, at_min, wrapped;
  logic [7:0] m_count;
  logic m_wrapped;
  int errors = 0;

  updown_counter #(.WIDTH(8)) dut (.*);

  always #5 clk = ~clk;

  // Reference model, updated on the same edge.
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      m_count <= 0; m_wrapped <= 0;
    end else begin
      m_wrapped <= 0;
      if (load) m_count <= load_val;
      else if (en && up) begin
        if (m_count == 8'hFF) begin if (!sat) begin m_count <= 0; m_wrapped <= 1; end end
        else m_count <= m_count + 1;
      end else if (en && !up) begin
        if (m_count == 0) begin if (!sat) begin m_count <= 8'hFF; m_wrapped <= 1; end end
        else m_count <= m_count - 1;
      end
    end
  end

  always @(negedge clk) if (rst_n) begin
    if (count !== m_count || wrapped !== m_wrapped || at_max !== (m_count == 8'hFF)
        || at_min !== (m_count == 0)) begin
      errors++;
      $error("mismatch: count=%0d exp=%0d wrapped=%b exp=%b", count, m_count, wrapped, m_wrapped);
    end
  end


  // Bug hunt (issue 31): the diagnostic unlock as the spec states it (load with sat high on four consecutive
  // edges: K with K[1:0] = 01, ~K, K+1, ~(K+1); anything else restarts the key and is not taken as a new K;
  // diag rises on the edge that accepts the fourth value and stays until reset), checked with the count.
  logic [1:0] m_step;
  logic [7:0] m_key;
  logic m_diag;
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      m_step <= 0; m_key <= 0; m_diag <= 0;
    end else if (load && sat && (m_step == 0 ? load_val[1:0] == 2'b01 :
                                 m_step == 1 ? load_val == ~m_key :
                                 m_step == 2 ? load_val == 8'(m_key + 1) : load_val == ~8'(m_key + 1))) begin
      if (m_step == 0) m_key <= load_val;
      if (m_step == 3) m_diag <= 1;
      m_step <= m_step + 1;
    end else m_step <= 0;
  end
  always @(negedge clk) if (rst_n && diag !== m_diag) begin
    errors++;
    $error("diag=%b expected %b", diag, m_diag);
  end

  task automatic step(input logic e, input logic u, input logic l, input logic [7:0] v, input logic s);
    en = e; up = u; load = l; load_val = v; sat = s;
    @(posedge clk); #1;
  endtask

  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1; #1;
    // Count up a few steps, then load values that exercise every bit of count.
    repeat (3) step(1, 1, 0, 0, 0);
    step(0, 0, 1, 8'hAA, 0);
    step(0, 0, 1, 8'h55, 0);
    step(0, 0, 1, 8'hFE, 0);
    step(1, 1, 0, 0, 0);          // FE -> FF
    step(1, 1, 0, 0, 1);          // saturate at FF
    step(1, 1, 0, 0, 0);          // wrap FF -> 00
    step(1, 0, 0, 0, 1);          // saturate at 00
    step(1, 0, 0, 0, 0);          // wrap 00 -> FF
    step(1, 0, 0, 0, 0);          // FF -> FE
    step(0, 1, 0, 0, 0);          // hold
    step(1, 1, 1, 8'h0F, 0);      // load beats enable
    // Random traffic.
    repeat (300) step($urandom_range(0, 1), $urandom_range(0, 1), ($urandom_range(0, 15) == 0),
                      8'($urandom), $urandom_range(0, 1));
    // Diagnostic unlock (spec): K = 59 and K = A5 unlock; K = 11 fails at step 2, then at step 3.
    step(0, 0, 1, 8'h59, 1); step(0, 0, 1, 8'hA6, 1); step(0, 0, 1, 8'h5A, 1); step(0, 0, 1, 8'hA5, 1);
    step(0, 0, 0, 0, 0);
    step(0, 0, 1, 8'hA5, 1); step(0, 0, 1, 8'h5A, 1); step(0, 0, 1, 8'hA6, 1); step(0, 0, 1, 8'h59, 1);
    step(0, 0, 0, 0, 0);
    step(0, 0, 1, 8'h10, 1); step(0, 0, 1, 8'h11, 1); step(0, 0, 1, 8'hEE, 1); step(0, 0, 1, 8'h00, 1);
    step(0, 0, 0, 0, 0);
    step(0, 0, 1, 8'h11, 1); step(0, 0, 1, 8'hEE, 1); step(0, 0, 1, 8'h12, 1); step(0, 0, 1, 8'h00, 1);
    step(0, 0, 0, 0, 0);
    if (!diag) begin errors++; $error("diag not set by the key"); end
    // Asynchronous reset in mid-count.
    step(0, 0, 1, 8'h33, 0);
    #1 rst_n = 0; #1 rst_n = 1;
    step(1, 1, 0, 0, 0);
    if (errors == 0) $display("PASS"); else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
