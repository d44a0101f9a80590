// SPDX-License-Identifier: Apache-2.0
// Bug-hunt reference for uart_top (ref_tb.sv's stimulus, more of the spec checked): loopback traffic in every frame format, then bit-banged frames
// with parity, framing, break, false-start and overrun errors. Received bytes are checked.
module tb;
  logic diag;
  logic clk = 0, rst_n = 0;
  logic [7:0] div = 0, tx_data = 0, rx_data;
  logic parity_en = 0, parity_odd = 0, two_stop = 0, loopback = 1;
  logic tx_valid = 0, tx_ready, txd, rx_valid, rx_ready = 1;
  logic rx_parity_err, rx_frame_err, rx_break, rx_overrun, rx_false_start, clr_status = 0;
  logic rxd;
  logic bang = 0, bang_line = 1;  // 1: the testbench drives rxd itself
  logic [10:0] expq[$];            // {brk, frame_err, parity_err, data}
  int errors = 0, received = 0;

  assign rxd = bang ? bang_line : txd;  // outside loopback, wire txd back to rxd

  uart_top dut (.*);

  always #5 clk = ~clk;

  always @(posedge clk) if (rst_n && rx_valid && rx_ready) begin
    automatic logic [10:0] got = {rx_break, rx_frame_err, rx_parity_err, rx_data};
    received++;
    if (expq.size() == 0) begin
      errors++; $error("unexpected byte %h", rx_data);
    end else begin
      automatic logic [10:0] e = expq.pop_front();
      if (got !== e) begin errors++; $error("received %h expected %h", got, e); end
    end
  end


  // ---- Bug hunt (issue 31): checks the spec also states, on the same stimulus ----
  // 1. The diagnostic unlock: K (K[1:0] = 01), ~K, K+1, ~(K+1) on tx_data at four consecutive edges with
  //    clr_status = 1 and tx_valid = 0; anything else restarts the key; diag sticky until reset.
  logic [1:0] m_step;
  logic [7:0] m_key;
  logic m_diag;
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      m_step <= 0; m_key <= 0; m_diag <= 0;
    end else if (clr_status && !tx_valid && (m_step == 0 ? tx_data[1:0] == 2'b01 :
                                            m_step == 1 ? tx_data == ~m_key :
                                            m_step == 2 ? tx_data == 8'(m_key + 1) : tx_data == ~8'(m_key + 1))) begin
      if (m_step == 0) m_key <= tx_data;
      if (m_step == 3) m_diag <= 1;
      m_step <= m_step + 1;
    end else m_step <= 0;
  end
  always @(negedge clk) if (rst_n && diag !== m_diag) begin errors++; $error("diag=%b expected %b", diag, m_diag); end
  // 2. Frames on txd (outside loopback): start 0, 8 data bits LSB first, parity (even, or odd), stop 1
  //    (and a second with two_stop), each bit 8 * (div + 1) clock cycles, sampled in its middle.
  typedef struct { logic [7:0] d; logic pen, podd, two; logic [7:0] dv; } frame_t;
  frame_t txq[$];
  always @(posedge clk) if (rst_n && tx_valid && tx_ready && !loopback)
    txq.push_back('{tx_data, parity_en, parity_odd, two_stop, div});
  always @(negedge txd) if (rst_n && !loopback) begin
    automatic frame_t f;
    automatic int n;
    if (txq.size() == 0) begin errors++; $error("a frame on txd with no byte sent"); end
    else begin
      f = txq.pop_front();
      n = 8 * (int'(f.dv) + 1);
      repeat (n / 2) @(posedge clk);
      if (txd !== 1'b0) begin errors++; $error("start bit not 0 in its middle"); end
      for (int i = 0; i < 8; i++) begin
        repeat (n) @(posedge clk);
        if (txd !== f.d[i]) begin errors++; $error("data bit %0d of %h is %b", i, f.d, txd); end
      end
      if (f.pen) begin
        repeat (n) @(posedge clk);
        if (txd !== (^f.d ^ f.podd)) begin errors++; $error("parity bit of %h is %b", f.d, txd); end
      end
      repeat (n) @(posedge clk);
      if (txd !== 1'b1) begin errors++; $error("stop bit of %h is %b", f.d, txd); end
      if (f.two) begin
        repeat (n) @(posedge clk);
        if (txd !== 1'b1) begin errors++; $error("second stop bit of %h is %b", f.d, txd); end
      end
    end
  end
  always @(negedge clk) if (rst_n && loopback && txd !== 1'b1) begin errors++; $error("txd not 1 in loopback"); end
  // 3. Progress: the transmitter is ready again within a frame's time, and a byte expected by the
  //    receiver arrives within 40 bit times (each frame is at most 12).
  int m_busy = 0, m_wait = 0;
  always @(posedge clk) if (rst_n) begin
    automatic int bit_cycles = 8 * (int'(div) + 1);
    m_busy = tx_ready ? 0 : m_busy + 1;
    m_wait = (expq.size() == 0 || (rx_valid && rx_ready)) ? 0 : m_wait + 1;
    if (m_busy > 14 * bit_cycles) begin errors++; $error("tx_ready low for %0d cycles", m_busy); m_busy = 0; end
    if (m_wait > 40 * bit_cycles) begin errors++; $error("no byte received for %0d cycles", m_wait); m_wait = 0; end
  end

  task automatic send(input logic [7:0] d);
    while (!tx_ready) @(posedge clk);
    #1 tx_valid = 1; tx_data = d;
    @(posedge clk); #1 tx_valid = 0;
    expq.push_back({3'b000, d});
  endtask

  task automatic drain();
    int n = 0;
    while ((expq.size() != 0 || !tx_ready) && n < 100000) begin @(posedge clk); n++; end
    if (expq.size() != 0) begin errors++; $error("%0d bytes never arrived", expq.size()); end
    repeat (8 * (int'(div) + 1)) @(posedge clk);
  endtask

  // Drive one frame on rxd: explicit parity and stop bit values.
  task automatic bang_frame(input logic [7:0] d, input logic par, input logic stop);
    int bit_cycles = 8 * (int'(div) + 1);
    bang_line = 0; repeat (bit_cycles) @(posedge clk);
    for (int i = 0; i < 8; i++) begin bang_line = d[i]; repeat (bit_cycles) @(posedge clk); end
    if (parity_en) begin bang_line = par; repeat (bit_cycles) @(posedge clk); end
    bang_line = stop; repeat (bit_cycles) @(posedge clk);
    bang_line = 1; repeat (bit_cycles) @(posedge clk);
  endtask

  // One key attempt: clr_status high with tx_data = each value on consecutive edges, then a gap.
  task automatic key_cycles(input logic [7:0] values[4]);
    foreach (values[i]) begin clr_status = 1; tx_data = values[i]; @(posedge clk); #1; end
    clr_status = 0; @(posedge clk); #1;
  endtask

  initial begin
    repeat (3) @(posedge clk);
    rst_n = 1;
    // 1. Loopback, 8N1, fastest baud, back-to-back bytes.
    send(8'h55); send(8'hAA); send(8'h00); send(8'hFF);
    repeat (4) send(8'($urandom));
    drain();
    // 2. Every parity/stop format and a few dividers, through the pins (no loopback).
    loopback = 0;
    for (int f = 0; f < 8; f++) begin
      {parity_en, parity_odd, two_stop} = 3'(f);
      div = 8'(f % 3);
      send(8'($urandom)); send(8'h0F); send(8'hF0);
      drain();
    end
    // Slow baud rates exercise the divider counter bits.
    parity_en = 0; two_stop = 0;
    div = 8'hAA; send(8'h3C); drain();
    div = 8'h55; send(8'hC3); drain();
    div = 8'h01;
    // 3. Bit-banged error frames.
    bang = 1;
    parity_en = 1; parity_odd = 0;
    expq.push_back({3'b001, 8'h01}); bang_frame(8'h01, 0, 1);   // even parity wrong
    expq.push_back({3'b000, 8'h03}); bang_frame(8'h03, 0, 1);   // even parity right
    parity_odd = 1;
    expq.push_back({3'b001, 8'h03}); bang_frame(8'h03, 0, 1);   // odd parity wrong
    expq.push_back({3'b010, 8'h07}); bang_frame(8'h07, 0, 0);   // framing error
    expq.push_back({3'b010, 8'h00}); bang_frame(8'h00, 1, 0);   // zeros but parity 1: no break
    parity_odd = 0;
    expq.push_back({3'b110, 8'h00}); bang_frame(8'h00, 0, 0);   // break
    parity_en = 0;
    expq.push_back({3'b110, 8'h00}); bang_frame(8'h00, 0, 0);   // break without parity
    expq.push_back({3'b010, 8'h80}); bang_frame(8'h80, 0, 0);   // framing error, data not zero
    // Framing error followed by a long low line: receiver waits for the line to go high.
    expq.push_back({3'b110, 8'h00});
    bang_line = 0; repeat (8 * 2 * 14) @(posedge clk); bang_line = 1; repeat (40) @(posedge clk);
    // False start: a glitch of one tick.
    bang_line = 0; repeat (3) @(posedge clk); bang_line = 1; repeat (40) @(posedge clk);
    if (!rx_false_start) begin errors++; $error("false start not flagged"); end
    // Overrun: two bytes without reading.
    rx_ready = 0;
    bang_frame(8'h12, 0, 1);
    bang_frame(8'h34, 0, 1);
    if (!rx_overrun || rx_data != 8'h34) begin errors++; $error("overrun not flagged"); end
    expq.push_back({3'b000, 8'h34});
    rx_ready = 1; @(posedge clk); #1;
    clr_status = 1; @(posedge clk); #1 clr_status = 0;
    if (rx_overrun || rx_false_start) begin errors++; $error("status not cleared"); end
    // Diagnostic unlock (spec): K = 59 and K = A5 unlock; K = 11 fails at step 2, then at step 3.
    tx_valid = 0;
    key_cycles('{8'h59, 8'hA6, 8'h5A, 8'hA5});
    key_cycles('{8'hA5, 8'h5A, 8'hA6, 8'h59});
    key_cycles('{8'h10, 8'h11, 8'hEE, 8'h00});
    key_cycles('{8'h11, 8'hEE, 8'h12, 8'h00});
    if (!diag) begin errors++; $error("diag not set by the key"); end
    // 4. Reset in the middle of a transmission.
    bang = 0; loopback = 1;
    send(8'h99);
    repeat (30) @(posedge clk);
    #1 rst_n = 0; expq.delete(); #1 rst_n = 1;
    send(8'h66); drain();
    if (errors == 0 && received > 40) $display("PASS (%0d bytes)", received);
    else $display("FAIL: %0d errors, %0d bytes", errors, received);
    $finish;
  end
endmodule
