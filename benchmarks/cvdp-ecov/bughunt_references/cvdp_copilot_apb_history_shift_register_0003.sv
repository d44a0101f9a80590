// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  reg pclk = 0, presetn, pselx, penable, pwrite, history_shift_valid, clk_gate_en;
  reg [9:0] paddr;
  reg [7:0] pwdata;
  wire pready, pslverr, history_full, history_empty, error_flag, interrupt_full, interrupt_error;
  wire [7:0] prdata;

  APBGlobalHistoryRegister dut (.pclk(pclk), .presetn(presetn), .paddr(paddr), .pselx(pselx),
    .penable(penable), .pwrite(pwrite), .pwdata(pwdata), .history_shift_valid(history_shift_valid),
    .clk_gate_en(clk_gate_en), .pready(pready), .prdata(prdata), .pslverr(pslverr),
    .history_full(history_full), .history_empty(history_empty), .error_flag(error_flag),
    .interrupt_full(interrupt_full), .interrupt_error(interrupt_error));

  always #5 pclk = ~pclk;

  // Scoreboard of the spec: on rising pclk edges not gated by clk_gate_en, PREADY is 1, a transfer to an
  // address above 0x2 raises PSLVERR (a valid one clears it), prdata returns control_register[3:0],
  // train_history[6:0] or predict_history (0 for other addresses and outside transfers), and writes set
  // control_register[3:0] / train_history[6:0]. On a rising history_shift_valid, predict_history loads
  // {train_history[6:0], train_taken} on a misprediction, else shifts in predict_taken when predict_valid.
  // history_full/empty follow 8'hFF/8'h00, interrupt_full = history_full, error_flag = interrupt_error =
  // pslverr. presetn clears everything. APB inputs change on falling edges: read at rising ones.
  logic [3:0] m_ctrl = 0;
  logic [6:0] m_train = 0;
  logic [7:0] m_hist = 0, m_prdata = 0;
  logic m_pready = 0, m_pslverr = 0;
  bit m_on = 0;
  task automatic check(input string where);
    automatic logic full = m_hist == 8'hFF, empty = m_hist == 8'h00;
    if ({pready, pslverr, prdata} !== {m_pready, m_pslverr, m_prdata} ||
        {history_full, history_empty, interrupt_full, error_flag, interrupt_error} !==
        {full, empty, full, m_pslverr, m_pslverr})
      $fatal(1, "%0t (%s): pready %b pslverr %b prdata %h full %b empty %b, expected %b %b %h %b %b", $time,
             where, pready, pslverr, prdata, history_full, history_empty, m_pready, m_pslverr, m_prdata,
             full, empty);
  endtask
  task automatic m_reset();
    m_ctrl = 0; m_train = 0; m_hist = 0; m_prdata = 0; m_pready = 0; m_pslverr = 0; m_on = 1;
    #0.5 check("reset");
  endtask
  always @(negedge presetn) m_reset();
  initial #0.1 if (!presetn) m_reset();  // no falling edge is seen at time 0
  always @(posedge history_shift_valid) if (presetn && m_on) begin
    if (m_ctrl[2]) m_hist = {m_train, m_ctrl[3]};
    else if (m_ctrl[0]) m_hist = {m_hist[6:0], m_ctrl[1]};
    #0.5 check("history_shift_valid");
  end
  always @(posedge pclk) if (presetn && m_on && !clk_gate_en) begin
    automatic bit valid = pselx && penable;
    m_pready = 1;
    if (valid) begin
      m_pslverr = paddr > 2;
      case (paddr)
        0: m_prdata = {4'b0, m_ctrl};
        1: m_prdata = {1'b0, m_train};
        2: m_prdata = m_hist;
        default: m_prdata = 0;
      endcase
      if (pwrite && paddr == 0) m_ctrl = pwdata[3:0];
      if (pwrite && paddr == 1) m_train = pwdata[6:0];
    end else m_prdata = 0;
    #0.5 check("pclk");
  end

  task automatic apb(input bit wr, input [9:0] addr, input [7:0] data = 0);
    @(negedge pclk); pselx = 1; penable = 0; pwrite = wr; paddr = addr; pwdata = data;
    @(negedge pclk); penable = 1;
    @(negedge pclk); pselx = 0; penable = 0;
    if (!wr) $display("rd %h -> %h err=%b", addr, prdata, pslverr);
  endtask

  task automatic shift();
    @(negedge pclk); history_shift_valid = 1; @(negedge pclk); history_shift_valid = 0;
  endtask

  // control: {train_taken, train_mispredicted, predict_taken, predict_valid}
  task automatic predict(input bit taken);
    apb(1, 10'h0, {6'b0, taken, 1'b1}); shift();
  endtask

  initial begin
    presetn = 0; pselx = 0; penable = 0; pwrite = 0; paddr = 0; pwdata = 0;
    history_shift_valid = 0; clk_gate_en = 0;
    repeat (3) @(negedge pclk); presetn = 1;
    // registers
    apb(1, 10'h0, 8'hFF); apb(0, 10'h0); apb(1, 10'h0, 8'h00); apb(0, 10'h0);
    apb(1, 10'h1, 8'hFF); apb(0, 10'h1); apb(1, 10'h1, 8'h00); apb(0, 10'h1);
    apb(1, 10'h2, 8'hFF); apb(0, 10'h2);
    apb(1, 10'h3, 8'h12); apb(0, 10'h3); apb(0, 10'h3FF); apb(1, 10'h200, 8'h1); apb(0, 10'h1);
    // shift without a valid prediction
    shift();
    // fill with taken -> full, then not taken -> empty
    for (int i = 0; i < 9; i++) predict(1);
    apb(0, 10'h2);
    for (int i = 0; i < 9; i++) predict(0);
    apb(0, 10'h2);
    // alternating
    for (int i = 0; i < 8; i++) predict(i % 2);
    // mispredictions restore train_history plus the real outcome
    apb(1, 10'h1, 8'h7F); apb(1, 10'h0, 8'b1100); shift(); apb(0, 10'h2);
    apb(1, 10'h1, 8'h00); apb(1, 10'h0, 8'b0100); shift(); apb(0, 10'h2);
    apb(1, 10'h1, 8'h55); apb(1, 10'h0, 8'b1111); shift(); apb(0, 10'h2);
    apb(1, 10'h1, 8'h2A); apb(1, 10'h0, 8'b0101); shift(); apb(0, 10'h2);
    // clock gating: APB writes ignored while gated
    @(negedge pclk); clk_gate_en = 1;
    apb(1, 10'h0, 8'h3); apb(0, 10'h0); apb(1, 10'h7, 8'h3);
    @(negedge pclk); clk_gate_en = 0;
    apb(0, 10'h0);
    // random
    for (int i = 0; i < 300; i++) begin
      apb($urandom(), ($urandom() % 4) ? ($urandom() % 3) : $urandom(), $urandom());
      if ($urandom() % 2) shift();
      if ($urandom() % 10 == 0) begin @(negedge pclk); clk_gate_en = ~clk_gate_en; end
    end
    clk_gate_en = 0;
    // reset in the middle
    predict(1); predict(1);
    #3 presetn = 0; #10 presetn = 1;
    apb(0, 10'h2);
    $finish;
  end
endmodule
