// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam ADDR_WIDTH = 6, DATA_WIDTH = 32;
  logic clk_dsp = 0, PCLK = 0;
  logic en_clk_dsp, PRESETn, PWRITE, PSEL, PENABLE;
  logic [ADDR_WIDTH-1:0] PADDR;
  logic [DATA_WIDTH-1:0] PWDATA;
  logic [DATA_WIDTH-1:0] PRDATA;
  logic PREADY, PSLVERR;

  apb_dsp_op #(.ADDR_WIDTH(ADDR_WIDTH), .DATA_WIDTH(DATA_WIDTH)) apb_dsp_op_dut (
    .clk_dsp(clk_dsp), .en_clk_dsp(en_clk_dsp), .PCLK(PCLK), .PRESETn(PRESETn), .PADDR(PADDR),
    .PWRITE(PWRITE), .PWDATA(PWDATA), .PSEL(PSEL), .PENABLE(PENABLE), .PRDATA(PRDATA),
    .PREADY(PREADY), .PSLVERR(PSLVERR));

  always #1 clk_dsp = ~clk_dsp;   // 500 MHz
  always #10 PCLK = ~PCLK;        // 50 MHz

  // Scoreboard of the spec at the register level: the seven registers (byte addresses 0x00..0x18 as the
  // design decodes them) reset to 0 and read back what was written; a read with REG_CONTROL = 2 returns the
  // SRAM word at REG_ADDR_SRAM; PSLVERR flags an unknown register address, or an SRAM address above 63 in
  // modes 1, 2 and 6; PREADY is 1 from the first transfer after reset. The SRAM (64 words) is written with
  // REG_WDATA_SRAM at REG_ADDR_SRAM in mode 1, and with O = A * B + C at REG_OPERAND_O in mode 6, where
  // A, B and C were read in modes 3, 4 and 5 from REG_OPERAND_A/B/C. SRAM data is compared only where it has
  // had time to cross the clock domains (5 PCLK cycles since the last register write) and is known.
  localparam real SETTLE = 100.0;
  logic [31:0] m_reg [7];
  logic [31:0] m_mem [64];
  bit m_known [64];
  logic [31:0] m_op [3];
  bit m_op_known [3];
  logic [31:0] m_prdata = 0;
  logic m_pready = 0, m_pslverr = 0;
  realtime m_changed = 0;
  bit m_on = 0;

  function automatic int reg_index(input logic [ADDR_WIDTH-1:0] a);
    return (a[1:0] == 0 && a <= 6'h18) ? int'(a >> 2) : -1;
  endfunction
  function automatic int sram_target(input int ctrl);  // the SRAM address a mode uses, -1 for none
    case (ctrl)
      1, 2: return m_reg[6] < 64 ? int'(m_reg[6]) : 64;
      3, 4, 5: return m_reg[ctrl - 3] < 64 ? int'(m_reg[ctrl - 3]) : 64;
      6: return m_reg[3] < 64 ? int'(m_reg[3]) : 64;
      default: return -1;
    endcase
  endfunction
  // What the current mode does to the SRAM and the operands once it has settled.
  task automatic apply_mode();
    automatic int ctrl = m_reg[4] < 8 ? int'(m_reg[4]) : 0;
    automatic int a = sram_target(ctrl);
    case (ctrl)
      1: if (a < 64) begin m_mem[a] = m_reg[5]; m_known[a] = 1; end
      3, 4, 5: begin m_op[ctrl - 3] = a < 64 ? m_mem[a] : 'x; m_op_known[ctrl - 3] = a < 64 && m_known[a]; end
      6: if (a < 64) begin
           m_mem[a] = m_op[0] * m_op[1] + m_op[2];
           m_known[a] = m_op_known[0] && m_op_known[1] && m_op_known[2];
         end
      default: ;
    endcase
  endtask

  task automatic m_reset();
    foreach (m_reg[k]) m_reg[k] = 0;
    m_prdata = 0; m_pready = 0; m_pslverr = 0; m_on = 1;
  endtask
  always @(negedge PRESETn) m_reset();
  initial #0.1 if (!PRESETn) m_reset();  // no falling edge is seen at time 0
  initial begin
    foreach (m_known[k]) m_known[k] = 0;
    foreach (m_op_known[k]) m_op_known[k] = 0;
  end

  always @(posedge PCLK) begin
    automatic int ri = reg_index(PADDR);
    automatic int ctrl = m_reg[4] < 8 ? int'(m_reg[4]) : 0;
    automatic bit check_rd = 0;
    if (PRESETn && m_on && PSEL && PENABLE) begin
      apply_mode();
      m_pready = 1;
      if ((ctrl == 1 || ctrl == 2 || ctrl == 6) && sram_target(ctrl) > 63) m_pslverr = 1;
      else m_pslverr = ri < 0;
      if (PWRITE) begin
        if (ri >= 0) begin m_reg[ri] = PWDATA; m_changed = $realtime; end
      end else if (ctrl == 2) begin
        automatic int a = sram_target(2);
        check_rd = a < 64 && m_known[a] && $realtime - m_changed >= SETTLE;
        m_prdata = check_rd ? m_mem[a] : 'x;
      end else if (ri >= 0) begin
        m_prdata = m_reg[ri]; check_rd = 1;
      end else check_rd = !$isunknown(m_prdata);
      apply_mode();
      #0.5;
      if (PREADY !== m_pready || PSLVERR !== m_pslverr)
        $fatal(1, "%0t: PREADY/PSLVERR %b%b, expected %b%b (addr %h)", $time, PREADY, PSLVERR, m_pready,
               m_pslverr, PADDR);
      if (check_rd && PRDATA !== m_prdata)
        $fatal(1, "%0t: read %h returned %h, expected %h", $time, PADDR, PRDATA, m_prdata);
      m_prdata = PRDATA;
    end
  end

  localparam A = 6'h00, B = 6'h04, C = 6'h08, O = 6'h0C, CTRL = 6'h10, WDATA = 6'h14, SADDR = 6'h18;

  task automatic apb(input logic wr, input logic [ADDR_WIDTH-1:0] addr, input logic [31:0] data = 0);
    @(negedge PCLK);
    PSEL = 1; PENABLE = 0; PWRITE = wr; PADDR = addr; PWDATA = data;
    @(negedge PCLK);
    PENABLE = 1;
    @(negedge PCLK);
    PSEL = 0; PENABLE = 0;
  endtask
  task automatic wr(input logic [ADDR_WIDTH-1:0] addr, input logic [31:0] data); apb(1, addr, data); endtask
  task automatic rd(input logic [ADDR_WIDTH-1:0] addr); apb(0, addr); $display("rd %h -> %h err=%b", addr, PRDATA, PSLVERR); endtask

  task automatic sram_write(input logic [31:0] addr, input logic [31:0] data);
    wr(CTRL, 0); wr(WDATA, data); wr(SADDR, addr); wr(CTRL, 1); repeat (3) @(negedge PCLK);
  endtask

  task automatic dsp_run(input int a, input int b, input int c, input int o);
    wr(A, a); wr(B, b); wr(C, c); wr(O, o);
    wr(CTRL, 3); repeat (4) @(negedge PCLK);
    wr(CTRL, 4); repeat (4) @(negedge PCLK);
    wr(CTRL, 5); repeat (4) @(negedge PCLK);
    wr(CTRL, 6); repeat (4) @(negedge PCLK);
    wr(CTRL, 0); wr(SADDR, o); wr(CTRL, 2); repeat (4) @(negedge PCLK); rd(A);
  endtask

  task automatic scenario();
    // register bank: ones, zeros, random, read back
    foreach (regs[i]) begin wr(regs[i], '1); rd(regs[i]); end
    foreach (regs[i]) begin wr(regs[i], '0); rd(regs[i]); end
    foreach (regs[i]) begin wr(regs[i], $urandom()); rd(regs[i]); end
    // out-of-range register addresses
    wr(6'h3F, 32'hDEADBEEF); rd(6'h3F); wr(6'h1C, 1); rd(6'h01); rd(6'h2A);
    // fill SRAM with ones, then zeros, then random data
    wr(CTRL, 0);
    for (int k = 0; k < 3; k++) begin
      wr(WDATA, k == 0 ? 32'hFFFFFFFF : (k == 1 ? 32'h0 : $urandom()));
      wr(CTRL, 1);
      for (int a = 0; a < 64; a++) begin
        if (k == 2) wr(WDATA, $urandom());
        wr(SADDR, a);
      end
      wr(CTRL, 0);
    end
    // SRAM read mode
    wr(CTRL, 2);
    for (int a = 0; a < 64; a += 5) begin wr(SADDR, a); repeat (3) @(negedge PCLK); rd(A); end
    // out-of-range SRAM address in each SRAM mode
    wr(CTRL, 0); wr(SADDR, 32'hFFFF_FFC0); wr(O, 32'h100);
    foreach (modes[i]) begin wr(CTRL, modes[i]); repeat (3) @(negedge PCLK); rd(A); wr(B, 1); end
    wr(CTRL, 0); wr(SADDR, 0);
    // DSP: O = A * B + C
    sram_write(10, 32'd7); sram_write(11, 32'd6); sram_write(12, 32'd5);
    dsp_run(10, 11, 12, 13);
    for (int k = 0; k < 12; k++) begin
      sram_write(20, $urandom()); sram_write(21, $urandom()); sram_write(22, $urandom());
      dsp_run(20, 21, 22, 23 + k);
    end
    sram_write(30, 32'hFFFFFFFF); sram_write(31, 32'h1); sram_write(32, 32'h7FFFFFFF);
    dsp_run(30, 31, 32, 33);
    // other control values
    wr(CTRL, 7); rd(CTRL); wr(CTRL, 32'hFFFFFFFF); rd(CTRL); wr(CTRL, 0);
    // random APB traffic
    for (int k = 0; k < 150; k++)
      apb($urandom(), ($urandom() % 4) ? (($urandom() % 7) * 4) : $urandom(),
          ($urandom() % 2) ? ($urandom() % 64) : $urandom());
    wr(CTRL, 0);
  endtask

  logic [ADDR_WIDTH-1:0] regs[7] = '{A, B, C, O, CTRL, WDATA, SADDR};
  logic [31:0] modes[3] = '{32'd1, 32'd2, 32'd6};

  initial begin
    PRESETn = 0; en_clk_dsp = 0; PSEL = 0; PENABLE = 0; PWRITE = 0; PADDR = 0; PWDATA = 0;
    repeat (3) @(negedge PCLK);
    PRESETn = 1;
    scenario();             // DSP side on PCLK
    en_clk_dsp = 1; repeat (4) @(negedge PCLK);
    scenario();             // DSP side on the fast clock
    en_clk_dsp = 0; repeat (4) @(negedge PCLK);
    // asynchronous reset in the middle of a transfer
    @(negedge PCLK); PSEL = 1; PWRITE = 1; PADDR = A; PWDATA = 32'h1234;
    #3 PRESETn = 0; #20 PRESETn = 1; PSEL = 0;
    rd(A);
    $finish;
  end
endmodule
