// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam KEY = 8'hAA, DW = 8, AW = 8;
  reg [AW-1:0] i_addr;
  reg [DW-1:0] i_data_in;
  reg [7:0] i_key_in;
  reg i_read_write_enable, i_capture_pulse, i_reset_bar;
  wire [DW-1:0] o_data_out;
  wire o_error;

  secure_read_write_bus_interface #(.p_configurable_key(KEY), .p_data_width(DW), .p_addr_width(AW)) dut (
    .i_addr(i_addr), .i_data_in(i_data_in), .i_key_in(i_key_in), .i_read_write_enable(i_read_write_enable),
    .i_capture_pulse(i_capture_pulse), .i_reset_bar(i_reset_bar), .o_data_out(o_data_out), .o_error(o_error));

  // Model of the spec: on a rising i_capture_pulse, a matching key (p_configurable_key) clears o_error and
  // performs the access: a read puts the stored word on o_data_out, a write stores i_data_in and outputs 0;
  // a wrong key sets o_error and outputs 0 (nothing written). The asynchronous active-low reset clears both
  // outputs. Reads of never-written words are not compared.
  logic [DW-1:0] m_mem [2**AW];
  bit m_known [2**AW];
  initial foreach (m_known[k]) m_known[k] = 0;
  always @(posedge i_capture_pulse) if (i_reset_bar) begin
    automatic bit ok = i_key_in == KEY, rd = i_read_write_enable;
    automatic logic [AW-1:0] a = i_addr;
    automatic logic [DW-1:0] want = '0;
    if (ok && !rd) begin m_mem[a] = i_data_in; m_known[a] = 1; end
    if (ok && rd) want = m_mem[a];
    #0.5;
    if (o_error !== !ok || ((!ok || !rd || m_known[a]) && o_data_out !== want))
      $fatal(1, "%0t: %s %h key %h: out %h err %b, expected %h %b", $time, rd ? "read" : "write", a, i_key_in,
             o_data_out, o_error, want, !ok);
  end
  always @(negedge i_reset_bar) #0.5 if ({o_data_out, o_error} !== '0) $fatal(1, "%0t: reset left outputs set", $time);

  task automatic access(input bit rd, input [AW-1:0] a, input [DW-1:0] d, input [7:0] k);
    i_read_write_enable = rd; i_addr = a; i_data_in = d; i_key_in = k;
    #5 i_capture_pulse = 1; #5 i_capture_pulse = 0;
    if (rd) $display("rd %h key=%h -> %h err=%b", a, k, o_data_out, o_error);
  endtask

  initial begin
    i_reset_bar = 0; i_capture_pulse = 0; i_addr = 0; i_data_in = 0; i_key_in = 0; i_read_write_enable = 0;
    #10 i_reset_bar = 1;
    // write every address with ones, read back; then zeros; then random
    for (int a = 0; a < 256; a++) access(0, a, 8'hFF, KEY);
    for (int a = 0; a < 256; a++) access(1, a, 0, KEY);
    for (int a = 0; a < 256; a++) access(0, a, 8'h00, KEY);
    for (int a = 0; a < 256; a++) access(1, a, 0, KEY);
    for (int a = 0; a < 256; a++) access(0, a, $urandom(), KEY);
    for (int a = 0; a < 256; a++) access(1, a, 0, KEY);
    // wrong keys for read and write, including every single-bit difference
    for (int b = 0; b < 8; b++) begin access(1, b, 0, KEY ^ (8'h1 << b)); access(0, b, 8'h55, KEY ^ (8'h1 << b)); end
    access(1, 3, 0, 8'h00); access(1, 3, 0, KEY); access(0, 3, 8'h12, 8'hFF); access(1, 3, 0, KEY);
    // random traffic, random keys
    repeat (400) access($urandom(), $urandom(), $urandom(), ($urandom() % 3) ? KEY : $urandom());
    // asynchronous reset after a successful read and after an error
    access(1, 8'h10, 0, KEY); #2 i_reset_bar = 0; #3 i_reset_bar = 1;
    access(1, 8'h10, 0, 8'h00); #2 i_reset_bar = 0; #3 i_reset_bar = 1;
    access(1, 8'h10, 0, KEY);
    $finish;
  end
endmodule
