// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a cycle model of the spec.
`timescale 1ns/1ps
module tb;
  reg        clk = 0;
  reg        reset;
  reg  [4:0] data;
  wire       ATTN_CLK, ATTN_DATA, ATTN_LE;

  Attenuator uut (.clk(clk), .reset(reset), .data(data),
                  .ATTN_CLK(ATTN_CLK), .ATTN_DATA(ATTN_DATA), .ATTN_LE(ATTN_LE));

  always #5 clk = ~clk;

  // Scoreboard from the spec: clk_div2 toggles on every rising clk edge; on its rising edges the FSM
  // IDLE -(data != previous data)-> LOAD (shift_reg = data, ATTN_DATA = data[4], 5 bits to go) -> SHIFT
  // (ATTN_CLK high, ATTN_DATA = MSB, shift left, count down; LATCH after the count reached 0) -> LATCH
  // (ATTN_LE one cycle) -> IDLE. Reset (active high) clears everything. Inputs change right after a rising
  // clk edge and the design samples them there, so the model steps 1 ns after each edge.
  typedef enum logic [1:0] {M_IDLE, M_LOAD, M_SHIFT, M_LATCH} mstate_t;
  mstate_t m_st = M_IDLE;
  logic m_div = 0, m_clk = 0, m_dat = 0, m_le = 0;
  logic [4:0] m_old = 0, m_sh = 0;
  int m_cnt = 0;

  always @(posedge clk) begin
    #1;
    if (reset) begin
      m_div = 0; m_st = M_IDLE; m_old = 0; m_sh = 0; m_cnt = 0; m_clk = 0; m_dat = 0; m_le = 0;
    end else begin
      m_div = !m_div;
      if (m_div) begin
        mstate_t nxt = m_st;
        m_clk = 0; m_le = 0;
        case (m_st)
          M_IDLE:  begin m_dat = 0; if (data != m_old) nxt = M_LOAD; end
          M_LOAD:  begin m_sh = data; m_cnt = 5; m_dat = data[4]; nxt = M_SHIFT; end
          M_SHIFT: begin m_clk = 1; m_dat = m_sh[4]; m_sh = m_sh << 1; if (m_cnt == 0) nxt = M_LATCH; m_cnt--; end
          M_LATCH: begin m_le = 1; nxt = M_IDLE; end
        endcase
        m_old = data;
        m_st = nxt;
      end
    end
    if ({ATTN_CLK, ATTN_DATA, ATTN_LE} !== {m_clk, m_dat, m_le})
      $fatal(1, "%0t: ATTN_CLK/DATA/LE = %b%b%b, expected %b%b%b", $time, ATTN_CLK, ATTN_DATA, ATTN_LE,
             m_clk, m_dat, m_le);
  end

  always @(posedge clk)
    if (ATTN_LE) $display("%0t latch", $time);

  task automatic send(input [4:0] v, input int cycles);
    data = v;
    repeat (cycles < 2 ? 2 : cycles) @(posedge clk);  // each value held at least 2 cycles
  endtask

  initial begin
    reset = 1; data = 5'b0;
    repeat (4) @(posedge clk);
    reset = 0;
    repeat (4) @(posedge clk);
    // no change: stay idle
    send(5'b00000, 10);
    // full patterns, enough time for load -> shift x6 -> latch
    send(5'b11111, 24);
    send(5'b00000, 24);
    send(5'b10101, 24);
    send(5'b01010, 24);
    send(5'b10000, 24);
    send(5'b00001, 24);
    send(5'b11111, 24);
    send(5'b11111, 10);   // repeated identical value
    // quick consecutive changes while shifting
    send(5'b00110, 3);
    send(5'b11001, 3);
    send(5'b01101, 30);
    // random values with varying gaps
    for (int i = 0; i < 60; i++) send($urandom() % 32, 1 + ($urandom() % 28));
    // reset in the middle of a shift
    send(5'b10110, 8);
    reset = 1; repeat (3) @(posedge clk); reset = 0;
    send(5'b01001, 30);
    $finish;
  end
endmodule
