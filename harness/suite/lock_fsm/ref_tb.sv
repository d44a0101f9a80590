// SPDX-License-Identifier: Apache-2.0
// Reference testbench for lock_fsm: correct keys, a wrong word at every position, abandoned
// entries, lockout with timeout and with the administrator code, relock by request and by idle
// timeout, the saturating open counter and a mid-run reset, checked against a cycle model.
module tb;
  logic        clk = 0, rst_n = 0;
  logic        key_valid = 0, lock_req = 0, admin_clr = 0;
  logic [15:0] key_in = 0;
  logic        unlocked, lockout, alarm;
  logic [1:0]  fail_cnt;
  logic [3:0]  opens;
  logic [2:0]  state_o;

  lock_fsm u_lock (.*);

  always #5 clk = ~clk;

  localparam logic [15:0] KEY[4] = '{16'hC0DE, 16'h5EED, 16'hB0A7, 16'h0F1E};
  localparam logic [15:0] ADMIN = 16'hAD51;

  int m_st = 0, m_timer = 0, errors = 0;
  logic m_alarm = 0;
  logic [1:0] m_fail = 0;
  logic [3:0] m_opens = 0;

  task automatic check();
    if (state_o !== 3'(m_st) || unlocked !== (m_st == 4) || lockout !== (m_st == 5)
        || alarm !== m_alarm || fail_cnt !== m_fail || opens !== m_opens) begin
      errors++;
      $error("state=%0d/%0d alarm=%b/%b fail=%0d/%0d opens=%0d/%0d", state_o, m_st, alarm,
             m_alarm, fail_cnt, m_fail, opens, m_opens);
    end
  endtask

  task automatic cycle(input logic v, input logic [15:0] k, input logic lr, input logic ac);
    key_valid = v; key_in = k; lock_req = lr; admin_clr = ac;
    @(posedge clk); #1;
    case (m_st)
      4: if (lr) begin m_st = 0; m_timer = 0; end
         else if (v) m_timer = 200;
         else if (m_timer == 0) m_st = 0;
         else m_timer--;
      5: if (ac && k == ADMIN) begin m_st = 0; m_timer = 0; m_fail = 0; m_alarm = 0; end
         else if (m_timer == 0) begin m_st = 0; m_fail = 0; end
         else m_timer--;
      default:
        if (v) begin
          m_timer = 0;
          if (k == KEY[m_st]) begin
            if (m_st == 3) begin
              m_st = 4; m_timer = 200; m_fail = 0;
              if (m_opens != 15) m_opens++;
            end else m_st++;
          end else if (m_fail == 2) begin
            m_st = 5; m_timer = 600; m_fail = 3; m_alarm = 1;
          end else begin
            m_st = 0; m_fail++;
          end
        end else if (m_st != 0) begin
          if (m_timer == 23) begin m_st = 0; m_timer = 0; end
          else m_timer++;
        end
    endcase
    check();
  endtask

  task automatic word(input logic [15:0] k);
    cycle(1'b1, k, 1'b0, 1'b0);
  endtask

  task automatic idle(input int n);
    repeat (n) cycle(1'b0, 16'($urandom), 1'b0, 1'b0);
  endtask

  task automatic unlock();
    foreach (KEY[i]) word(KEY[i]);
    if (!unlocked) begin errors++; $error("key did not open the lock"); end
  endtask

  task automatic relock();
    cycle(1'b0, 0, 1'b1, 1'b0);
  endtask

  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1; #1;
    idle(3);
    unlock();
    idle(5);
    word(16'hffff);                        // activity while open restarts the relock timer
    cycle(1'b1, 16'h0000, 1'b1, 1'b0);     // lock_req wins over key_valid
    // A wrong word at each position (key words off by one bit), with gaps between words.
    for (int pos = 0; pos < 4; pos++) begin
      for (int j = 0; j < pos; j++) begin word(KEY[j]); idle(j); end
      word(KEY[pos] ^ 16'(1 << (pos * 4 + 1)));
      if (pos == 1) begin unlock(); relock(); end   // success clears the failure count
    end
    // Abandoned entries at K1, K2, K3, and a gap of 23 cycles that is still fine.
    for (int pos = 1; pos < 4; pos++) begin
      for (int j = 0; j < pos; j++) word(KEY[j]);
      idle(30);
    end
    word(KEY[0]); idle(23); word(KEY[1]); word(KEY[2]); idle(10); word(KEY[3]);
    // Auto relock after the idle time; lock_req and admin_clr while locked do nothing.
    idle(205);
    cycle(1'b1, ADMIN, 1'b1, 1'b1);
    // Lockout, waited out in full; admin_clr with a wrong code is ignored.
    word(16'h0000); word(16'hffff); word(KEY[1]);
    idle(100);
    cycle(1'b0, ADMIN ^ 16'h0100, 1'b0, 1'b1);
    cycle(1'b1, KEY[0], 1'b1, 1'b0);       // keys are ignored during lockout
    idle(520);
    if (alarm !== 1'b1) begin errors++; $error("alarm cleared without the admin code"); end
    idle(5);
    // Lockout cleared by the administrator.
    word(KEY[1]); word(KEY[2]); word(KEY[3]);
    idle(3);
    cycle(1'b0, ADMIN, 1'b0, 1'b1);
    unlock(); relock();
    // Saturate the open counter.
    for (int i = 0; i < 16; i++) begin unlock(); if (i % 2) relock(); else idle(202); end
    // Mid-run reset during an entry.
    word(KEY[0]); word(KEY[1]);
    rst_n = 0; #1;
    m_st = 0; m_timer = 0; m_fail = 0; m_alarm = 0; m_opens = 0;
    check();
    @(posedge clk); #1; rst_n = 1;
    // Random words, half of them correct.
    for (int i = 0; i < 400; i++) begin
      int r = $urandom_range(9);
      if (r < 5) word(KEY[m_st < 4 ? m_st : 0]);
      else if (r < 7) word(16'($urandom));
      else if (r == 7) cycle(1'b0, ADMIN, $urandom_range(1), $urandom_range(1));
      else idle($urandom_range(30));
    end
    if (errors == 0) $display("PASS");
    else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
