// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  reg pclk = 0, presetn, pselx, penable, pwrite, sram_valid;
  reg [9:0] paddr;
  reg [7:0] pwdata;
  wire pready, pslverr;
  wire [7:0] prdata;

  apb_dsp_unit dut (.pclk(pclk), .presetn(presetn), .paddr(paddr), .pselx(pselx), .penable(penable),
    .pwrite(pwrite), .pwdata(pwdata), .sram_valid(sram_valid), .pready(pready), .prdata(prdata),
    .pslverr(pslverr));

  always #5 pclk = ~pclk;

  // Scoreboard of the spec: registers 0x0..0x4 reset to 0 and read back what was written; r_Enable = 3
  // turns reads into memory reads and lets a rising sram_valid store r_write_data at r_write_address;
  // modes 1 and 2 keep memory[0x5] = memory[r_operand_1] +/* memory[r_operand_2] (8 bits) every cycle and
  // 0x5 reads it; PSLVERR flags an address above 0x5 (above the 1 KB memory in write mode); PREADY is 1 out
  // of reset; prdata is 0 outside read transfers. APB inputs change on falling edges: read at rising ones.
  logic [7:0] m_reg [5];
  logic [7:0] m_mem [1024];
  bit m_known [1024];
  logic [7:0] m_prdata = 0;
  logic m_pready = 0, m_pslverr = 0;
  bit m_rd_known = 1, m_on = 0;
  initial foreach (m_known[k]) m_known[k] = 0;
  task automatic m_reset();
    foreach (m_reg[k]) m_reg[k] = 0;
    m_mem[5] = 0; m_known[5] = 1; m_prdata = 0; m_pready = 0; m_pslverr = 0; m_rd_known = 1; m_on = 1;
  endtask
  always @(negedge presetn) m_reset();
  initial #0.1 if (!presetn) m_reset();  // no falling edge is seen at time 0
  always @(posedge sram_valid) if (presetn && m_reg[2] == 3) begin
    m_mem[m_reg[3]] = m_reg[4]; m_known[m_reg[3]] = 1;
  end
  always @(posedge pclk) if (presetn && m_on) begin
    automatic bit valid = pselx && penable;
    automatic logic [7:0] en = m_reg[2];
    automatic logic [7:0] a = m_mem[m_reg[0]], b = m_mem[m_reg[1]];
    automatic bit ab_known = m_known[m_reg[0]] && m_known[m_reg[1]];
    m_pready = 1;
    m_pslverr = valid && (en == 3 ? paddr > 1024 : paddr > 5);
    if (valid && !pwrite) begin
      if (en == 3) begin m_prdata = m_mem[paddr]; m_rd_known = m_known[paddr]; end
      else begin
        m_rd_known = 1;
        case (paddr)
          0, 1, 2, 3, 4: m_prdata = m_reg[paddr];
          5: begin m_prdata = m_mem[5]; m_rd_known = m_known[5]; end
          default: m_prdata = 0;
        endcase
      end
    end else if (!valid) begin m_prdata = 0; m_rd_known = 1; end
    if (valid && pwrite && paddr < 5) m_reg[paddr] = pwdata;
    if (en == 1 || en == 2) begin
      m_mem[5] = en == 1 ? 8'(a + b) : 8'(a * b); m_known[5] = ab_known;
    end
    #0.5;
    if (pready !== m_pready || pslverr !== m_pslverr || (m_rd_known && prdata !== m_prdata))
      $fatal(1, "%0t: pready/pslverr/prdata %b %b %h, expected %b %b %h", $time, pready, pslverr, prdata,
             m_pready, m_pslverr, m_prdata);
  end

  task automatic apb(input bit wr, input [9:0] addr, input [7:0] data = 0);
    @(negedge pclk); pselx = 1; penable = 0; pwrite = wr; paddr = addr; pwdata = data;
    @(negedge pclk); penable = 1;
    @(negedge pclk); pselx = 0; penable = 0;
    if (!wr) $display("rd %h -> %h err=%b", addr, prdata, pslverr);
  endtask

  task automatic mem_write(input [7:0] addr, input [7:0] data);
    apb(1, 10'h3, addr); apb(1, 10'h4, data);
    @(negedge pclk); sram_valid = 1; @(negedge pclk); sram_valid = 0;
  endtask

  initial begin
    presetn = 0; pselx = 0; penable = 0; pwrite = 0; sram_valid = 0; paddr = 0; pwdata = 0;
    repeat (3) @(negedge pclk); presetn = 1;
    // CSR write/read, all ones / zeros / random
    for (int r = 0; r < 5; r++) begin apb(1, r, 8'hFF); apb(0, r); end
    for (int r = 0; r < 5; r++) begin apb(1, r, 8'h00); apb(0, r); end
    for (int r = 0; r < 5; r++) begin apb(1, r, $urandom()); apb(0, r); end
    apb(1, 10'h2, 8'h0);
    apb(0, 10'h5); apb(0, 10'h6); apb(1, 10'h3FF, 8'h55); apb(0, 10'h3FF); apb(0, 10'h200);
    // write mode: fill memory (SRAM write on sram_valid edges)
    apb(1, 10'h2, 8'h3);
    for (int a = 0; a < 256; a++) mem_write(a, 8'hFF);
    for (int a = 0; a < 256; a++) mem_write(a, 8'h00);
    for (int a = 0; a < 256; a++) mem_write(a, $urandom());
    for (int a = 0; a < 16; a++) apb(0, a);
    apb(0, 10'h3FF); apb(1, 10'h3FF, 8'h1);
    // add / multiply with varied operands
    for (int k = 0; k < 40; k++) begin
      apb(1, 10'h2, 8'h3);
      mem_write(8'h10, $urandom()); mem_write(8'h11, $urandom());
      if (k == 0) begin mem_write(8'h10, 8'hFF); mem_write(8'h11, 8'hFF); end
      apb(1, 10'h2, 8'h0);
      apb(1, 10'h0, 8'h10); apb(1, 10'h1, 8'h11);
      apb(1, 10'h2, (k % 2) ? 8'h2 : 8'h1);
      apb(0, 10'h5);
      apb(1, 10'h2, 8'h0);
      apb(0, 10'h5);
    end
    // sram_valid pulses while not in write mode
    apb(1, 10'h2, 8'h1); @(negedge pclk); sram_valid = 1; @(negedge pclk); sram_valid = 0;
    apb(1, 10'h2, 8'h7); apb(0, 10'h2);
    // random traffic
    for (int k = 0; k < 300; k++) begin
      apb($urandom(), ($urandom() % 3) ? ($urandom() % 8) : $urandom(), $urandom() % (k % 2 ? 4 : 256));
      if ($urandom() % 4 == 0) begin @(negedge pclk); sram_valid = 1; @(negedge pclk); sram_valid = 0; end
    end
    // reset mid-transfer
    @(negedge pclk); pselx = 1; pwrite = 1; paddr = 0; pwdata = 8'hAA;
    #2 presetn = 0; #10 presetn = 1; pselx = 0;
    apb(0, 10'h0);
    $finish;
  end
endmodule
