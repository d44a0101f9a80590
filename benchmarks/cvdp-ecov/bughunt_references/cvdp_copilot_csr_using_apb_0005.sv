// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
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

  // Model of the spec's APB slave: IDLE -(pselx)-> SETUP -(penable)-> WRITE_STATE / READ_STATE, where one
  // cycle raises pready (and loads prdata, or writes the register), the next drops it and returns to IDLE.
  // DATA_REG keeps {reserved[11:0], data1, data2}, CONTROL_REG {reserved[29:0], enable, mode},
  // INTERRUPT_REG {reserved[27:0], overflow/sign/parity/zero_ie}: each reads back what was written. An
  // unknown address raises pslverr, which stays until reset. presetn clears pready, prdata, pslverr and
  // the DATA and INTERRUPT registers (the spec names no reset value for CONTROL_REG: not compared until
  // written). APB inputs change on falling edges: read at rising ones.
  localparam M_IDLE = 0, M_SETUP = 1, M_READ = 2, M_WRITE = 3;
  int m_st = M_IDLE;
  logic [31:0] m_data = 0, m_intr = 0, m_ctrl = 'x, m_prdata = 0;
  logic m_pready = 0, m_pslverr = 0;
  bit m_on = 0;
  task automatic check(input string where);
    if (pready !== m_pready || pslverr !== m_pslverr || (!$isunknown(m_prdata) && prdata !== m_prdata))
      $fatal(1, "%0t (%s): pready %b pslverr %b prdata %h, expected %b %b %h", $time, where, pready, pslverr,
             prdata, m_pready, m_pslverr, m_prdata);
  endtask
  task automatic m_reset();
    m_st = M_IDLE; m_data = 0; m_intr = 0; m_prdata = 0; m_pready = 0; m_pslverr = 0; m_on = 1;
    #0.5 check("reset");
  endtask
  always @(negedge presetn) m_reset();
  initial #0.1 if (!presetn) m_reset();  // no falling edge is seen at time 0
  always @(posedge pclk) if (presetn && m_on) begin
    case (m_st)
      M_IDLE:  if (pselx) m_st = M_SETUP;
      M_SETUP: if (penable) m_st = pwrite ? M_WRITE : M_READ;
      M_READ, M_WRITE:
        if (m_pready) begin m_st = M_IDLE; m_pready = 0; end
        else begin
          m_pready = 1;
          case (paddr)
            32'h10: if (m_st == M_READ) m_prdata = m_data; else m_data = pwdata;
            32'h14: if (m_st == M_READ) m_prdata = m_ctrl; else m_ctrl = pwdata;
            32'h18: if (m_st == M_READ) m_prdata = m_intr; else m_intr = pwdata;
            default: m_pslverr = 1;
          endcase
        end
    endcase
    #0.5 check("clock");
  end

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
