// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam AW = 8, DW = 8;
  localparam [7:0] C0 = 8'hAB, C1 = 8'hCD;
  reg i_rst_n, i_read_write_enable, i_capture_pulse;
  reg [AW-1:0] i_addr;
  reg [DW-1:0] i_data_in;
  wire [DW-1:0] o_data_out;

  secure_read_write_register_bank #(.p_address_width(AW), .p_data_width(DW), .p_unlock_code_0(C0),
    .p_unlock_code_1(C1)) dut (.i_rst_n(i_rst_n), .i_addr(i_addr), .i_data_in(i_data_in),
    .i_read_write_enable(i_read_write_enable), .i_capture_pulse(i_capture_pulse), .o_data_out(o_data_out));

  // Model of the spec: locked after reset; writing C0 to address 0 takes the first unlock step, then writing
  // C1 to address 1 unlocks (any other access in between relocks); once unlocked, writing a wrong code to
  // address 0 or 1 relocks. Unlocked: reads of addresses >= 2 return the stored word, reads of 0 and 1
  // return 0, writes store; locked: reads return 0, only addresses 0 and 1 are written. A write outputs 0.
  // i_rst_n (asynchronous) relocks. Checked just after each rising i_capture_pulse (never-written words are
  // not compared).
  localparam M_LOCKED = 0, M_STEP1 = 1, M_OPEN = 2;
  int m_state = M_LOCKED;
  logic [DW-1:0] m_mem [2**AW];
  bit m_known [2**AW];
  initial foreach (m_known[k]) m_known[k] = 0;
  always @(negedge i_rst_n) m_state = M_LOCKED;
  always @(posedge i_capture_pulse) if (i_rst_n) begin
    automatic bit rd = i_read_write_enable, wr = !i_read_write_enable;
    automatic logic [AW-1:0] a = i_addr;
    automatic logic [DW-1:0] d = i_data_in, want = '0;
    automatic bit check = 1;
    if (m_state == M_OPEN) begin
      if (rd && a > 1) begin want = m_mem[a]; check = m_known[a]; end
      if (wr) begin m_mem[a] = d; m_known[a] = 1; end
    end else if (wr && a <= 1) begin m_mem[a] = d; m_known[a] = 1; end
    case (m_state)
      M_LOCKED: if (wr && a == 0 && d == C0) m_state = M_STEP1;
      M_STEP1:  m_state = (wr && a == 1 && d == C1) ? M_OPEN : M_LOCKED;
      M_OPEN:   if (wr && ((a == 0 && d != C0) || (a == 1 && d != C1))) m_state = M_LOCKED;
    endcase
    #0.5;
    if (check && o_data_out !== want)
      $fatal(1, "%0t: %s %h: o_data_out %h, expected %h", $time, rd ? "read" : "write", a, o_data_out, want);
  end

  task automatic access(input bit rd, input [AW-1:0] a, input [DW-1:0] d = 0);
    i_read_write_enable = rd; i_addr = a; i_data_in = d;
    #5 i_capture_pulse = 1; #5 i_capture_pulse = 0;
    if (rd) $display("rd %h -> %h", a, o_data_out);
  endtask

  task automatic unlock(); access(0, 0, C0); access(0, 1, C1); endtask

  initial begin
    i_rst_n = 0; i_capture_pulse = 0; i_addr = 0; i_data_in = 0; i_read_write_enable = 0;
    #10 i_rst_n = 1;
    // locked: reads give 0, writes to other addresses are dropped
    access(1, 5); access(0, 5, 8'h77); access(1, 5); access(1, 0); access(0, 2, 8'h11);
    // wrong first code, wrong second code, wrong order, read in between
    access(0, 0, 8'h00); access(0, 1, C1);
    access(0, 0, C0); access(0, 1, 8'h00);
    access(0, 0, C0); access(0, 2, C1);
    access(0, 0, C0); access(1, 1);
    access(0, 1, C0); access(0, 0, C1);
    // unlock, full access
    unlock();
    for (int a = 2; a < 256; a++) access(0, a, 8'hFF);
    for (int a = 0; a < 256; a++) access(1, a);
    for (int a = 2; a < 256; a++) access(0, a, 8'h00);
    for (int a = 0; a < 256; a++) access(1, a);
    for (int a = 2; a < 256; a++) access(0, a, $urandom());
    for (int a = 2; a < 256; a++) access(1, a);
    // rewriting the right codes keeps it unlocked; wrong code at 0 or 1 relocks
    access(0, 0, C0); access(0, 1, C1); access(1, 9);
    access(0, 1, 8'h00); access(1, 9);
    unlock(); access(0, 0, 8'h00); access(1, 9);
    unlock(); access(1, 0); access(1, 1);
    // random traffic with occasional unlock sequences and resets
    for (int k = 0; k < 500; k++) begin
      if (k % 50 == 0) unlock();
      access($urandom(), ($urandom() % 4) ? $urandom() : ($urandom() % 2), ($urandom() % 3) ? $urandom() : (($urandom() % 2) ? C0 : C1));
      if (k % 97 == 0) begin #2 i_rst_n = 0; #3 i_rst_n = 1; end
    end
    // reset while unlocked
    unlock(); #2 i_rst_n = 0; #3 i_rst_n = 1; access(1, 20);
    $finish;
  end
endmodule
