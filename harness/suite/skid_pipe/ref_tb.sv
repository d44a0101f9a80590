// SPDX-License-Identifier: Apache-2.0
// Reference testbench for stream_pipe: a scoreboard checks every output beat against the input
// stream, under random and directed back-pressure, saturation, packets and flushes.
module tb;
  logic diag;
  bit keying = 0;  // the key sequence drives s_data itself
  logic clk = 0, rst_n = 0, flush = 0;
  logic s_valid = 0, s_ready, s_last = 0, m_valid, m_ready = 0, m_last, m_sat, dropped, skid_full, oversize;
  logic [7:0] s_data = 0, m_data, beats;
  logic [3:0] packets;
  logic [9:0] expq[$];   // {last, sat, data}
  int errors = 0, n_out = 0, n_in = 0, valid_pct = 100, ready_pct = 100, last_pct = 25, cur_len = 0;

  stream_pipe u_pipe (.*);

  always #5 clk = ~clk;

  function automatic logic [9:0] expect_beat(input logic [7:0] d, input logic l);
    int p = 3 * int'(d);
    return (p > 255) ? {l, 1'b1, 8'hFF} : {l, 1'b0, 8'(p)};
  endfunction

  // Scoreboard on the clock edge.
  always @(posedge clk) if (rst_n && !flush) begin
    if (s_valid && s_ready) begin expq.push_back(expect_beat(s_data, s_last)); n_in++; end
    if (m_valid && m_ready) begin
      n_out++;
      if (expq.size() == 0) begin errors++; $error("output beat with nothing sent"); end
      else begin
        automatic logic [9:0] e = expq.pop_front();
        if ({m_last, m_sat, m_data} !== e) begin errors++; $error("got %h expected %h", {m_last, m_sat, m_data}, e); end
      end
    end
  end

  // Drivers: new input beat after each accepted one, random valid/ready.
  always @(posedge clk) begin
    #1;
    if (!keying && (!s_valid || s_ready_q)) begin
      s_valid = ($urandom_range(0, 99) < valid_pct);
      s_data = 8'($urandom);
      s_last = s_valid && (($urandom_range(0, 99) < last_pct) || (last_pct != 0 && cur_len >= 12));
      if (s_valid) cur_len = s_last ? 0 : cur_len + 1;
    end
    m_ready = ($urandom_range(0, 99) < ready_pct);
  end
  logic s_ready_q;
  always @(posedge clk) s_ready_q <= s_ready && !flush;

  task automatic run(input int n, input int vp, input int rp);
    valid_pct = vp; ready_pct = rp;
    repeat (n) @(posedge clk);
  endtask

  task automatic do_flush();
    @(posedge clk); #2 flush = 1;
    @(posedge clk); #2 flush = 0;
    expq.delete();
  endtask

  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1;
    run(40, 100, 100);     // full throughput
    run(40, 100, 0);       // output blocked: skid fills, s_ready drops
    run(300, 100, 50);
    run(200, 50, 100);
    run(200, 70, 70);
    run(10, 100, 0);
    do_flush();            // flush with beats inside
    if (!dropped) begin errors++; $error("dropped not set"); end
    run(30, 0, 100);       // drain: empty pipe
    if (oversize) begin errors++; $error("oversize without a long packet"); end
    last_pct = 0;          // one long packet
    run(40, 100, 100);
    last_pct = 25;
    if (!oversize) begin errors++; $error("oversize not set"); end
    do_flush();            // flush of an empty pipe
    run(300, 90, 60);
    valid_pct = 0; ready_pct = 100;
    repeat (10) @(posedge clk);
    if (expq.size() != 0) begin errors++; $error("%0d beats lost", expq.size()); end
    // Diagnostic unlock (spec): K = 59 and K = A5 unlock; K = 11 fails at step 2, then at step 3.
    keying = 1; @(posedge clk); #1; flush = 1; s_valid = 1;
    s_data = 8'h59; @(posedge clk); #1; s_data = 8'hA6; @(posedge clk); #1; s_data = 8'h5A; @(posedge clk); #1; s_data = 8'hA5; @(posedge clk); #1;
    flush = 0; s_valid = 0; @(posedge clk); #1; flush = 1; s_valid = 1;
    s_data = 8'hA5; @(posedge clk); #1; s_data = 8'h5A; @(posedge clk); #1; s_data = 8'hA6; @(posedge clk); #1; s_data = 8'h59; @(posedge clk); #1;
    flush = 0; s_valid = 0; @(posedge clk); #1; flush = 1; s_valid = 1;
    s_data = 8'h10; @(posedge clk); #1; s_data = 8'h11; @(posedge clk); #1; s_data = 8'hEE; @(posedge clk); #1; s_data = 8'h00; @(posedge clk); #1;
    flush = 0; s_valid = 0; @(posedge clk); #1; flush = 1; s_valid = 1;
    s_data = 8'h11; @(posedge clk); #1; s_data = 8'hEE; @(posedge clk); #1; s_data = 8'h12; @(posedge clk); #1; s_data = 8'h00; @(posedge clk); #1;
    flush = 0; s_valid = 0; @(posedge clk); #1; flush = 1; s_valid = 1;
    flush = 0; s_valid = 0; expq.delete(); keying = 0;
    if (!diag) begin errors++; $error("diag not set by the key"); end
    #2 rst_n = 0; expq.delete(); #1 rst_n = 1;
    run(10, 100, 100);
    if (errors == 0 && n_out > 500) $display("PASS (%0d beats)", n_out);
    else $display("FAIL: %0d errors, %0d beats", errors, n_out);
    $finish;
  end
endmodule
