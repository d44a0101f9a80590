`timescale 1ns/1ps
module tb;
  reg pclk = 0, presetn, pselx, penable, pwrite;
  reg [31:0] paddr, pwdata;
  wire pready, pslverr;
  wire [31:0] prdata;

  csr_apb_interface uut (.pclk(pclk), .presetn(presetn), .paddr(paddr), .pselx(pselx),
    .penable(penable), .pwrite(pwrite), .pwdata(pwdata), .pready(pready), .prdata(prdata),
    .pslverr(pslverr));

  always #5 pclk = ~pclk;

  localparam DATA = 32'h10, CTRL = 32'h14, INTR = 32'h18;

  task automatic apb(input bit wr, input [31:0] addr, input [31:0] data = 0, input bit sel = 1);
    @(negedge pclk); pselx = sel; penable = 0; pwrite = wr; paddr = addr; pwdata = data;
    @(negedge pclk); penable = 1;
    repeat (3) @(negedge pclk);
    pselx = 0; penable = 0;
    @(negedge pclk);
    if (!wr) $display("rd %h -> %h err=%b", addr, prdata, pslverr);
  endtask

  task automatic do_reset();
    @(negedge pclk); presetn = 0; @(negedge pclk); presetn = 1;
  endtask

  initial begin
    presetn = 0; pselx = 0; penable = 0; pwrite = 0; paddr = 0; pwdata = 0;
    repeat (2) @(negedge pclk); presetn = 1;
    foreach (regs[i]) begin
      apb(1, regs[i], 32'hFFFFFFFF); apb(0, regs[i]);
      apb(1, regs[i], 32'h00000000); apb(0, regs[i]);
      apb(1, regs[i], $urandom());  apb(0, regs[i]);
      apb(1, regs[i], 32'hAAAAAAAA); apb(0, regs[i]);
      apb(1, regs[i], 32'h55555555); apb(0, regs[i]);
    end
    // transactions without pselx
    apb(0, DATA, 0, 0); apb(1, DATA, 32'h12345678, 0);
    // a write to CONTROL_REG without penable (setup phase only)
    @(negedge pclk); pselx = 1; penable = 0; pwrite = 1; paddr = CTRL; pwdata = 32'h3;
    repeat (2) @(negedge pclk); pselx = 0;
    @(negedge pclk);
    // invalid addresses (pslverr sticks until reset)
    apb(1, 32'h20, 32'hDEADBEEF); apb(0, 32'h20);
    do_reset();
    apb(0, 32'hFFFFFFFF);
    do_reset();
    apb(1, 32'hFFFF_FFF0, 1);
    do_reset();
    // random traffic over the three registers and a few wild addresses
    for (int k = 0; k < 200; k++) begin
      apb($urandom(), ($urandom() % 5) ? regs[$urandom() % 3] : $urandom(), $urandom());
      if (pslverr) do_reset();
    end
    // reset in the middle of a transfer
    @(negedge pclk); pselx = 1; pwrite = 1; paddr = DATA; pwdata = 32'hCAFEF00D;
    @(negedge pclk); penable = 1;
    #2 presetn = 0; #4 presetn = 1; pselx = 0; penable = 0;
    apb(0, DATA);
    $finish;
  end
  logic [31:0] regs[3] = '{DATA, CTRL, INTR};
endmodule
