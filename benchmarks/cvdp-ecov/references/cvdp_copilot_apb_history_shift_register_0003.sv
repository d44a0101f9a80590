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
