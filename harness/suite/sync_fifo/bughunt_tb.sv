// SPDX-License-Identifier: Apache-2.0
// Bug-hunt reference for sync_fifo (ref_tb.sv's stimulus, flags and key checked too): fill/drain, corner cases, random traffic vs. a queue model.
module tb;
  logic diag;
  logic clk = 0, rst_n = 0;
  logic wr_en = 0, rd_en = 0, clr_err = 0;
  logic [7:0] wr_data = 0, rd_data;
  logic full, empty, almost_full, almost_empty, overflow, underflow;
  logic [5:0] count;
  logic [7:0] q[$];
  logic [7:0] exp_data;
  logic exp_valid;
  int errors = 0;
  logic [7:0] patterns[2] = '{8'hFF, 8'h00};

  sync_fifo #(.DW(8), .DEPTH(32), .AF_LEVEL(28), .AE_LEVEL(4)) u_fifo (.*);

  always #5 clk = ~clk;

  // Model: mirror pushes/pops on each edge and check read data one cycle later.
  always @(posedge clk) if (rst_n) begin
    automatic bit pop = rd_en && q.size() > 0;
    automatic bit push = wr_en && (q.size() < 32 || pop);
    exp_valid <= pop;
    if (pop) exp_data <= q.pop_front();
    if (push) q.push_back(wr_data);
  end

  always @(negedge clk) if (rst_n) begin
    if (exp_valid && rd_data !== exp_data) begin
      errors++; $error("rd_data=%h expected %h", rd_data, exp_data);
    end
    if (count !== q.size() || full !== (q.size() == 32) || empty !== (q.size() == 0)
        || almost_full !== (q.size() >= 28) || almost_empty !== (q.size() <= 4)) begin
      errors++; $error("flags wrong: count=%0d model=%0d", count, q.size());
    end
  end


  // ---- Bug hunt (issue 31): the rest of the spec on the same stimulus ----
  // The sticky flags: a dropped push sets overflow, a pop requested while empty sets underflow, clr_err
  // clears both (with priority), reset clears them; and the diagnostic unlock on wr_data (wr_en and clr_err
  // both high on four consecutive edges: K with K[1:0] = 01, ~K, K+1, ~(K+1); anything else restarts the key
  // and is not taken as a new K; diag sticky until reset). rd_data is 0 after reset.
  logic m_ovf = 0, m_unf = 0, m_diag = 0;
  logic [1:0] m_step = 0;
  logic [7:0] m_key = 0;
  bit m_drop = 0, m_empty_pop = 0;  // what the next edge does, read mid-cycle (the queue model moves on edges)
  always @(negedge clk) begin
    m_drop = wr_en && q.size() == 32 && !(rd_en && q.size() > 0);
    m_empty_pop = rd_en && q.size() == 0;
  end
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      m_ovf <= 0; m_unf <= 0; m_diag <= 0; m_step <= 0; m_key <= 0;
    end else begin
      if (clr_err) begin m_ovf <= 0; m_unf <= 0; end
      else begin
        if (m_drop) m_ovf <= 1;
        if (m_empty_pop) m_unf <= 1;
      end
      if (wr_en && clr_err && (m_step == 0 ? wr_data[1:0] == 2'b01 :
                               m_step == 1 ? wr_data == ~m_key :
                               m_step == 2 ? wr_data == 8'(m_key + 1) : wr_data == ~8'(m_key + 1))) begin
        if (m_step == 0) m_key <= wr_data;
        if (m_step == 3) m_diag <= 1;
        m_step <= m_step + 1;
      end else m_step <= 0;
    end
  end
  always @(negedge clk) if (rst_n && {overflow, underflow, diag} !== {m_ovf, m_unf, m_diag}) begin
    errors++; $error("overflow/underflow/diag = %b%b%b, expected %b%b%b", overflow, underflow, diag, m_ovf, m_unf, m_diag);
  end
  always @(negedge rst_n) #0.5 if (rd_data !== 8'h0) begin errors++; $error("rd_data not 0 after reset"); end

  task automatic cyc(input logic w, input logic r, input logic [7:0] d, input logic c = 0);
    wr_en = w; rd_en = r; wr_data = d; clr_err = c;
    @(posedge clk); #1;
    wr_en = 0; rd_en = 0; clr_err = 0;
  endtask

  initial begin
    exp_valid = 0;
    repeat (2) @(posedge clk);
    rst_n = 1; #1;
    cyc(0, 1, 0);                       // underflow on empty
    if (!underflow) begin errors++; $error("underflow not set"); end
    cyc(1, 1, 8'h11);                   // push+pop while empty: push only
    cyc(0, 0, 0, 1);                    // clear errors
    for (int i = 0; i < 32; i++) cyc(1, 0, (i % 2) ? 8'hAA : 8'h55);
    cyc(1, 0, 8'hFF);                   // overflow
    if (!overflow || !full) begin errors++; $error("overflow/full not set"); end
    cyc(1, 1, 8'h0F);                   // full: push+pop both happen
    cyc(1, 1, 8'hF0, 1);                // clear while both
    for (int i = 0; i < 33; i++) cyc(0, 1, 0);   // drain to empty and underflow once more
    cyc(1, 0, 8'hFF);
    cyc(1, 0, 8'h00);
    // Random traffic biased towards filling, then towards draining.
    repeat (200) cyc($urandom_range(0, 99) < 70, $urandom_range(0, 99) < 40, 8'($urandom),
                     $urandom_range(0, 30) == 0);
    repeat (200) cyc($urandom_range(0, 99) < 40, $urandom_range(0, 99) < 70, 8'($urandom),
                     $urandom_range(0, 30) == 0);
    // Every storage bit sees a 1 and a 0: drain, then pass all-ones and all-zeros through every entry.
    while (q.size() > 0) cyc(0, 1, 0);
    foreach (patterns[p]) begin
      repeat (32) cyc(1, 0, patterns[p]);
      repeat (32) cyc(0, 1, 0);
    end
    // Diagnostic unlock (spec): K = 59 and K = A5 unlock; K = 11 fails at step 2, then at step 3.
    while (q.size() > 0) cyc(0, 1, 0);
    cyc(1, 0, 8'h59, 1); cyc(1, 0, 8'hA6, 1); cyc(1, 0, 8'h5A, 1); cyc(1, 0, 8'hA5, 1);
    while (q.size() > 0) cyc(0, 1, 0);
    cyc(1, 0, 8'hA5, 1); cyc(1, 0, 8'h5A, 1); cyc(1, 0, 8'hA6, 1); cyc(1, 0, 8'h59, 1);
    while (q.size() > 0) cyc(0, 1, 0);
    cyc(1, 0, 8'h10, 1); cyc(1, 0, 8'h11, 1); cyc(1, 0, 8'hEE, 1); cyc(1, 0, 8'h00, 1);
    while (q.size() > 0) cyc(0, 1, 0);
    cyc(1, 0, 8'h11, 1); cyc(1, 0, 8'hEE, 1); cyc(1, 0, 8'h12, 1); cyc(1, 0, 8'h00, 1);
    while (q.size() > 0) cyc(0, 1, 0);
    if (!diag) begin errors++; $error("diag not set by the key"); end
    #1 rst_n = 0; q.delete(); exp_valid = 0; #1 rst_n = 1;
    cyc(1, 0, 8'h5A);
    if (errors == 0) $display("PASS"); else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
