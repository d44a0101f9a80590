// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb_apb_controller;
  logic clk = 0, reset_n;
  logic select_a_i, select_b_i, select_c_i, apb_pready_i;
  logic [31:0] addr_a_i, data_a_i, addr_b_i, data_b_i, addr_c_i, data_c_i;
  logic apb_psel_o, apb_penable_o, apb_pwrite_o;
  logic [31:0] apb_paddr_o, apb_pwdata_o;

  apb_controller dut (.clk(clk), .reset_n(reset_n), .select_a_i(select_a_i), .select_b_i(select_b_i),
    .select_c_i(select_c_i), .addr_a_i(addr_a_i), .data_a_i(data_a_i), .addr_b_i(addr_b_i),
    .data_b_i(data_b_i), .addr_c_i(addr_c_i), .data_c_i(data_c_i), .apb_psel_o(apb_psel_o),
    .apb_penable_o(apb_penable_o), .apb_paddr_o(apb_paddr_o), .apb_pwrite_o(apb_pwrite_o),
    .apb_pwdata_o(apb_pwdata_o), .apb_pready_i(apb_pready_i));

  always #5 clk = ~clk;

  // Scoreboard from the spec (at the APB-transfer level): outside a transfer every output is 0; a transfer
  // is one SETUP cycle (psel, pwrite, no penable) then ACCESS (penable) with address and data stable, and
  // ends one cycle after pready, or after 15 cycles without it (timeout); each transfer carries the address
  // and data of a pending event (triggered by its select pulse, not yet served), the highest priority first
  // (A > B > C) among events triggered in the same cycle; reset_n clears everything. Inputs change 1 ns
  // after a rising edge: read at the edge, compared 0.5 ns after it.
  bit m_pend [3];
  longint m_when [3];
  longint m_cycle = 0;
  int m_phase = 0, m_wait = 0;  // 0 idle, 1 setup, 2 access
  logic [31:0] m_addr, m_data;
  bit m_ready_seen = 0;
  initial foreach (m_pend[k]) m_pend[k] = 0;
  always @(posedge clk) if (reset_n) begin
    automatic logic [2:0] sel = {select_c_i, select_b_i, select_a_i};
    automatic logic [31:0] a [3] = '{addr_a_i, addr_b_i, addr_c_i};
    automatic logic [31:0] d [3] = '{data_a_i, data_b_i, data_c_i};
    automatic bit ready = apb_pready_i;
    automatic int phase = m_phase;
    m_cycle++;
    if (phase == 2) begin if (ready) m_ready_seen = 1; else m_wait++; end  // the ACCESS cycle just ended
    #0.5;
    if (reset_n) begin
      if (!apb_psel_o) begin
        if ({apb_penable_o, apb_pwrite_o, apb_paddr_o, apb_pwdata_o} !== '0)
          $fatal(1, "%0t: outputs not 0 outside a transfer", $time);
        if (phase == 1) $fatal(1, "%0t: SETUP not followed by ACCESS", $time);
        if (phase == 2 && !m_ready_seen && m_wait < 16) $fatal(1, "%0t: transfer ended before pready or the timeout", $time);
        m_phase = 0;
      end else if (!apb_penable_o) begin
        automatic int who = -1;
        if (phase != 0) $fatal(1, "%0t: SETUP inside a transfer", $time);
        if (apb_pwrite_o !== 1'b1) $fatal(1, "%0t: pwrite low in SETUP", $time);
        for (int k = 0; k < 3; k++)
          if (who < 0 && m_pend[k] && a[k] === apb_paddr_o && d[k] === apb_pwdata_o) who = k;
        if (who < 0) $fatal(1, "%0t: transfer %h/%h belongs to no pending event", $time, apb_paddr_o, apb_pwdata_o);
        for (int k = 0; k < who; k++)
          if (m_pend[k] && m_when[k] == m_when[who]) $fatal(1, "%0t: event %0d served before event %0d", $time, who, k);
        m_pend[who] = 0; m_phase = 1; m_addr = apb_paddr_o; m_data = apb_pwdata_o; m_wait = 0; m_ready_seen = 0;
      end else begin
        if (phase == 0) $fatal(1, "%0t: ACCESS without SETUP", $time);
        if (phase == 2 && (m_ready_seen || m_wait >= 16)) $fatal(1, "%0t: ACCESS held past pready or the timeout", $time);
        if ({apb_pwrite_o, apb_paddr_o, apb_pwdata_o} !== {1'b1, m_addr, m_data})
          $fatal(1, "%0t: address, data or pwrite changed during the transfer", $time);
        m_phase = 2;
      end
      for (int k = 0; k < 3; k++) if (sel[k]) begin m_pend[k] = 1; m_when[k] = m_cycle; end
    end
  end
  always @(negedge reset_n) begin
    foreach (m_pend[k]) m_pend[k] = 0;
    m_phase = 0;
    #0.5 if ({apb_psel_o, apb_penable_o, apb_pwrite_o, apb_paddr_o, apb_pwdata_o} !== '0)
      $fatal(1, "%0t: reset did not clear the outputs", $time);
  end

  // peripheral model: answers each ACCESS after `lat` cycles (lat >= 16 forces the timeout)
  int lat = 0;
  initial begin
    apb_pready_i = 0;
    forever begin
      @(posedge clk);
      if (apb_psel_o && !apb_penable_o) begin      // SETUP seen: schedule pready
        repeat (lat) @(posedge clk);
        #1 apb_pready_i = 1;
        @(posedge clk); #1 apb_pready_i = 0;
      end
    end
  end

  // events still queued or in flight: an input is never re-fired before its transfer completed
  logic [2:0] pend, qlist, cur; logic [3:0] cnt;
  wire [2:0] pick = qlist[0] ? 3'b001 : qlist[1] ? 3'b010 : qlist[2] ? 3'b100 : 3'b000;
  always @(posedge clk or negedge reset_n)
    if (!reset_n) begin pend <= 0; qlist <= 0; cur <= 0; cnt <= 0; end
    else begin
      cnt <= (apb_penable_o && !apb_pready_i) ? cnt + 4'd1 : 4'd0;
      if (!apb_psel_o) begin qlist <= pend; if (|pick) cur <= pick; pend <= pend | {select_c_i, select_b_i, select_a_i}; end
      else if (apb_penable_o && (apb_pready_i || cnt == 4'd15)) begin
        pend <= pend & ~cur; qlist <= qlist & ~cur;  // the design drops a select on the completing edge
      end else pend <= pend | {select_c_i, select_b_i, select_a_i};
    end

  task automatic tick(int n = 1); repeat (n) @(posedge clk); #1; endtask

  task automatic set_payload(input bit rnd);
    if (rnd) begin  // a queued event's address and data stay as they were when it was triggered
      logic [31:0] v [6];
      foreach (v[i]) v[i] = $urandom();
      if (!pend[0]) begin addr_a_i = v[0]; data_a_i = v[1]; end
      if (!pend[1]) begin addr_b_i = v[2]; data_b_i = v[3]; end
      if (!pend[2]) begin addr_c_i = v[4]; data_c_i = v[5]; end
    end
  endtask

  task automatic fire(input bit a, input bit b, input bit c);
    select_a_i = a; select_b_i = b; select_c_i = c; tick(); select_a_i = 0; select_b_i = 0; select_c_i = 0;
  endtask

  initial begin
    reset_n = 0; {select_a_i, select_b_i, select_c_i} = 0;
    addr_a_i = 32'hFFFF_FFFF; data_a_i = 32'hFFFF_FFFF; addr_b_i = 32'h0; data_b_i = 32'h0;
    addr_c_i = 32'hAAAA_AAAA; data_c_i = 32'h5555_5555;
    tick(2); reset_n = 1; tick(2);
    // single events with an immediately ready peripheral
    lat = 0;
    fire(1, 0, 0); tick(6); fire(0, 1, 0); tick(6); fire(0, 0, 1); tick(6);
    addr_a_i = 0; data_a_i = 0; addr_b_i = '1; data_b_i = '1; addr_c_i = 32'h5555_5555; data_c_i = 32'hAAAA_AAAA;
    fire(1, 0, 0); tick(6); fire(0, 1, 0); tick(6); fire(0, 0, 1); tick(6);
    // simultaneous events: priority A > B > C, queued
    fire(1, 1, 1); tick(15);
    fire(0, 1, 1); tick(12);
    fire(1, 0, 1); tick(12);
    // new events arriving while a transfer is in flight
    lat = 3; fire(0, 0, 1); tick(1); fire(1, 0, 0); tick(1); fire(0, 1, 0); tick(30);
    // wait states of every length, including timeout (no pready for 15 cycles)
    for (int l = 0; l <= 18; l++) begin lat = l; set_payload(1); fire(1, 0, 0); tick(l + 6); end
    lat = 40; fire(1, 1, 1); tick(70);
    // random traffic (an input fires only when its previous event completed, never two cycles in a row)
    begin
      bit [2:0] last = 0;
      for (int k = 0; k < 300; k++) begin
        bit a, b, c; bit [2:0] f; int gap;
        lat = ($urandom() % 4 == 0) ? ($urandom() % 20) : ($urandom() % 3);
        set_payload(1);
        a = $urandom() % 3 == 0; b = $urandom() % 3 == 0; c = $urandom() % 3 == 0;
        f = {c, b, a} & ~pend & ~last;
        fire(f[0], f[1], f[2]);
        gap = $urandom() % 4; tick(gap);
        last = gap == 0 ? f : 3'b000;
      end
    end
    tick(60); while (pend != 0) tick();
    // reset in the middle of a transfer
    lat = 5; fire(1, 1, 0); tick(2);
    #2 reset_n = 0; #5 reset_n = 1;
    tick(10);
    $finish;
  end
endmodule
