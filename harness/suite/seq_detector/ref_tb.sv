// SPDX-License-Identifier: Apache-2.0
// Reference testbench for seq_detector: directed patterns, timeouts in each partial state,
// count saturation and random bits, checked against a shift-register model.
module tb;
  logic diag;
  logic clk = 0, rst_n = 0;
  logic din_valid = 0, din = 0, overlap = 1, clr_count = 0;
  logic detect, timeout;
  logic [3:0] count;
  logic [2:0] state_o;
  int m_state = 0, m_idle = 0, m_count = 0, errors = 0;

  seq_detector dut (.*);

  always #5 clk = ~clk;

  // Model of the specification's transition table.
  function automatic int next_state(input int st, input logic b, input logic ovl);
    case (st)
      0: return b ? 1 : 0;
      1: return b ? 1 : 2;
      2: return b ? 3 : 0;
      3: return b ? 4 : 2;
      default: return b ? 1 : (ovl ? 2 : 0);
    endcase
  endfunction

  task automatic check(input logic exp_timeout);
    if (state_o !== 3'(m_state) || detect !== (m_state == 4) || count !== 4'(m_count)
        || timeout !== exp_timeout) begin
      errors++;
      $error("state=%0d/%0d detect=%b count=%0d/%0d timeout=%b", state_o, m_state, detect, count,
             m_count, timeout);
    end
  endtask

  task automatic put(input logic b);
    din_valid = 1; din = b;
    @(posedge clk); #1;
    din_valid = 0;
    if (m_state == 3 && b && !clr_count && m_count < 15) m_count++;
    m_state = next_state(m_state, b, overlap);
    m_idle = 0;
    check(0);
  endtask

  task automatic idle(input int n);
    repeat (n) begin
      automatic logic to = 0;
      @(posedge clk); #1;
      if (m_state inside {1, 2, 3}) begin
        if (m_idle == 7) begin m_state = 0; m_idle = 0; to = 1; end
        else m_idle++;
      end
      check(to);
    end
  endtask

  task automatic put_bits(input logic [15:0] bits, input int n);
    for (int i = n - 1; i >= 0; i--) put(bits[i]);
  endtask

  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1; #1;
    put_bits(16'b1011011, 7);              // overlapping: two matches
    overlap = 0;
    put_bits(16'b1011011, 7);              // non-overlapping: one match, then 011 restarts
    put_bits(16'b0101100, 7);
    overlap = 1;
    put_bits(16'b1110010, 7);
    put_bits(16'b1010, 4);                 // S101 -> 0 -> S10
    // Timeouts from S1, S10 and S101; DET does not time out.
    foreach (timeout_prefix[i]) begin
      put(1'b0); put(1'b0);                // back to S0
      put_bits(timeout_prefix[i], i + 1);
      idle(9);
      if (state_o != 3'd0) begin errors++; $error("no timeout from prefix %0d", i); end
    end
    put_bits(16'b1011, 4); idle(12);
    if (!detect) begin errors++; $error("DET timed out"); end
    put(1'b0); put(1'b0);
    idle(5); put(1'b1); idle(3); put(1'b0); idle(7); put(1'b1);  // near-timeouts keep the match
    // Saturate the counter, then clear it.
    repeat (18) put_bits(16'b1011, 4);
    m_count = 0; clr_count = 1; put(1'b0); clr_count = 0;
    if (count !== 0) begin errors++; $error("count not cleared"); end
    repeat (400) begin
      if ($urandom_range(0, 3) == 0) idle($urandom_range(1, 3));
      overlap = ($urandom_range(0, 7) != 0) ? overlap : ~overlap;
      put(1'($urandom));
    end
    // Service code on clr_count (spec): a wrong pulse, a wrong gap, a 16-cycle pulse, then 4, 6, 9, 7.
    clr_count = 1; repeat (5) @(posedge clk); clr_count = 0; repeat (3) @(posedge clk); clr_count = 1; repeat (4) @(posedge clk); clr_count = 0; repeat (2) @(posedge clk); clr_count = 1; repeat (16) @(posedge clk); clr_count = 0; repeat (3) @(posedge clk);
    clr_count = 1; repeat (4) @(posedge clk); clr_count = 0; repeat (3) @(posedge clk); clr_count = 1; repeat (6) @(posedge clk); clr_count = 0; repeat (3) @(posedge clk); clr_count = 1; repeat (9) @(posedge clk); clr_count = 0; repeat (3) @(posedge clk); clr_count = 1; repeat (7) @(posedge clk); clr_count = 0; repeat (16) @(posedge clk);
    #1 m_count = count;
    if (!diag) begin errors++; $error("diag not set by the service code"); end
    #1 rst_n = 0; #1 rst_n = 1;
    if (errors == 0) $display("PASS"); else $display("FAIL: %0d errors", errors);
    $finish;
  end

  logic [15:0] timeout_prefix[3] = '{16'b1, 16'b10, 16'b101};
endmodule
