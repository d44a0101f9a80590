// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module cmprs_afi_mux_ptr_tb;
  reg hclk = 0, reset;
  reg [26:0] sa_len_di;
  reg [2:0] sa_len_wa;
  reg sa_len_we, en, pre_busy_w, need_to_bother, last_burst_in_frame;
  reg [3:0] reset_pointers, busy;
  reg [1:0] pre_winner_channel, chunk_inc_want_m1;
  wire ptr_resetting;
  wire [26:0] chunk_addr;
  wire [2:0] max_wlen;

  cmprs_afi_mux_ptr uut (.hclk(hclk), .reset(reset), .sa_len_di(sa_len_di), .sa_len_wa(sa_len_wa),
    .sa_len_we(sa_len_we), .en(en), .reset_pointers(reset_pointers), .pre_busy_w(pre_busy_w),
    .pre_winner_channel(pre_winner_channel), .need_to_bother(need_to_bother),
    .chunk_inc_want_m1(chunk_inc_want_m1), .last_burst_in_frame(last_burst_in_frame), .busy(busy),
    .ptr_resetting(ptr_resetting), .chunk_addr(chunk_addr), .max_wlen(max_wlen));

  always #5 hclk = ~hclk;

  // Model of the spec's FSM and pointers: IDLE -> RESETTING on reset_pointers (the requested channel
  // pointers go to zero, then back to IDLE once no request is left) or -> ARBITRATION on pre_busy_w;
  // ARBITRATION -> UPDATE when need_to_bother (deciding whether pointer + increment rolls over the channel's
  // buffer length, sa_len) else IDLE; UPDATE moves the winner's pointer (wrapping by sa_len) and chunk_addr
  // while the winner is busy, then IDLE. The increment is chunk_inc_want_m1 as the design applies it;
  // sa_len entries start at 64 and are written in IDLE. Reset is synchronous. ptr_resetting is the
  // RESETTING state. Inputs change 1 ns after an edge: read at the edge, compared 0.5 ns after it.
  localparam M_IDLE = 0, M_RST = 1, M_ARB = 2, M_UPD = 3;
  int m_st = M_IDLE;
  logic [26:0] m_ptr [4], m_len [8], m_addr;
  logic [3:0] m_rq;
  logic m_roll;
  bit m_known = 0;
  always @(posedge hclk) begin
    automatic int nxt = M_IDLE;
    automatic logic [1:0] w = pre_winner_channel;
    if (reset) begin
      foreach (m_ptr[k]) m_ptr[k] = 0;
      foreach (m_len[k]) m_len[k] = 64;
      m_rq = 0; m_roll = 0; m_addr = 0; m_st = M_IDLE; m_known = 1;
    end else if (m_known) begin
      case (m_st)
        M_IDLE: nxt = |reset_pointers ? M_RST : pre_busy_w ? M_ARB : M_IDLE;
        M_RST:  nxt = m_rq == 0 ? M_IDLE : M_RST;
        M_ARB:  nxt = need_to_bother ? M_UPD : M_IDLE;
        M_UPD:  nxt = busy[w] ? M_UPD : M_IDLE;
      endcase
      case (m_st)
        M_IDLE: begin if (sa_len_we) m_len[sa_len_wa] = sa_len_di; m_rq = reset_pointers; end
        M_RST:  begin for (int k = 0; k < 4; k++) if (m_rq[k]) m_ptr[k] = 0; m_rq = 0; end
        M_ARB:  m_roll = 27'(m_ptr[w] + chunk_inc_want_m1) >= m_len[w];
        M_UPD:  if (busy[w]) begin
                  m_ptr[w] = m_roll ? 27'(m_ptr[w] + chunk_inc_want_m1 - m_len[w]) : 27'(m_ptr[w] + chunk_inc_want_m1);
                  m_addr = m_ptr[w];
                end
      endcase
      m_st = nxt;
    end
    #0.5;
    if (m_known && (ptr_resetting !== (m_st == M_RST) || chunk_addr !== m_addr))
      $fatal(1, "%0t: ptr_resetting %b chunk_addr %h, expected %b %h", $time, ptr_resetting, chunk_addr,
             m_st == M_RST, m_addr);
  end

  task automatic idle_inputs();
    sa_len_we = 0; reset_pointers = 0; pre_busy_w = 0; need_to_bother = 0; busy = 0;
  endtask

  task automatic tick(int n = 1);
    repeat (n) @(posedge hclk);
    #1;
  endtask

  task automatic write_len(input [2:0] a, input [26:0] d);
    idle_inputs(); sa_len_we = 1; sa_len_wa = a; sa_len_di = d; tick(); sa_len_we = 0;
  endtask

  // one arbitration: IDLE -> ARBITRATION -> UPDATE (busy for n cycles) -> IDLE
  task automatic burst(input [1:0] ch, input [1:0] inc, input int n, input [1:0] ch_upd);
    idle_inputs(); en = 1;
    pre_busy_w = 1; pre_winner_channel = ch; chunk_inc_want_m1 = inc; need_to_bother = 1; tick();
    pre_busy_w = 0; pre_winner_channel = ch_upd;
    busy = 4'b1111; tick(n);
    busy = 0; tick();
    last_burst_in_frame = ~last_burst_in_frame;
  endtask

  initial begin
    reset = 1; en = 0; sa_len_di = 0; sa_len_wa = 0; pre_winner_channel = 0; chunk_inc_want_m1 = 0;
    last_burst_in_frame = 0; idle_inputs();
    tick(3); reset = 0; tick();
    // fill every sa_len entry with complementary patterns
    for (int a = 0; a < 8; a++) write_len(a, 27'h7FFFFFF);
    for (int a = 0; a < 8; a++) write_len(a, 27'h0);
    for (int a = 0; a < 8; a++) write_len(a, 27'h5555555 ^ a);
    for (int a = 0; a < 8; a++) write_len(a, 27'h2AAAAAA ^ a);
    // small buffer lengths so pointers roll over
    for (int a = 0; a < 4; a++) write_len(a, 5 + a);
    for (int ch = 0; ch < 4; ch++)
      for (int k = 0; k < 6; k++) burst(ch, k % 4, 1, ch);
    // arbitration without need_to_bother
    idle_inputs(); pre_busy_w = 1; tick(); pre_busy_w = 0; tick(2);
    // pointer resets, one channel at a time and all together
    for (int ch = 0; ch < 4; ch++) begin idle_inputs(); reset_pointers = 4'b1 << ch; tick(); reset_pointers = 0; tick(3); end
    idle_inputs(); reset_pointers = 4'hF; tick(); reset_pointers = 0; tick(3);
    // long updates: the stored rollover decision is reapplied every busy cycle,
    // including when the winner changes between arbitration and update
    for (int a = 0; a < 4; a++) write_len(a, $urandom());
    for (int k = 0; k < 200; k++) begin
      if (k % 10 == 0) write_len($urandom(), ($urandom() % 2) ? $urandom() : ($urandom() % 16));
      burst($urandom(), $urandom(), 1 + $urandom() % 6, $urandom());
    end
    // random everything
    for (int k = 0; k < 1500; k++) begin
      sa_len_we = ($urandom() % 4) == 0; sa_len_wa = $urandom(); sa_len_di = $urandom();
      reset_pointers = (($urandom() % 8) == 0) ? $urandom() : 0;
      pre_busy_w = $urandom(); pre_winner_channel = $urandom(); need_to_bother = $urandom();
      chunk_inc_want_m1 = $urandom(); busy = $urandom(); en = $urandom(); last_burst_in_frame = $urandom();
      tick();
    end
    reset = 1; tick(2); reset = 0; tick(2);
    $finish;
  end
endmodule
