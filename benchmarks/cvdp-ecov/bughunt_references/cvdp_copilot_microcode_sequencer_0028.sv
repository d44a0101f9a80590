// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with the checks its spec allows.
`timescale 1ns/1ps
module tb_microcode_sequencer;
  logic clk = 0, c_n_in, c_inc_in, r_en, cc, ien, oen;
  logic [3:0] d_in;
  logic [4:0] instr_in;
  logic [3:0] d_out;
  logic c_n_out, c_inc_out, full, empty, g_n_out, p_n_out, g_inc_out, p_inc_out;

  microcode_sequencer uut (.clk(clk), .c_n_in(c_n_in), .c_inc_in(c_inc_in), .r_en(r_en), .cc(cc),
    .ien(ien), .d_in(d_in), .instr_in(instr_in), .oen(oen), .d_out(d_out), .c_n_out(c_n_out),
    .c_inc_out(c_inc_out), .full(full), .empty(empty), .g_n_out(g_n_out), .p_n_out(p_n_out),
    .g_inc_out(g_inc_out), .p_inc_out(p_inc_out));

  always #5 clk = ~clk;

  // Checks from the spec, which gives no cycle-level behaviour of the sequencer: the LIFO stack is never
  // full and empty at once, and the reset instruction (00000, instructions enabled) leaves it empty and not
  // full. Inputs change on falling edges; checked 1 ns after each rising edge.
  always @(posedge clk) begin
    automatic logic reset_instr = instr_in === 5'b00000 && ien === 1'b0;
    #1;
    if (full === 1'b1 && empty === 1'b1) $fatal(1, "%0t: the stack is full and empty at once", $time);
    if (reset_instr && {full, empty} !== 2'b01) $fatal(1, "%0t: reset instruction: full %b empty %b, expected 0 1",
                                                       $time, full, empty);
  end

  task automatic op(input [4:0] instr, input bit c = 0, input bit en_n = 0, input [3:0] d = 0,
                    input bit rn = 0, input bit on = 0, input bit cn = 0, input bit ci = 1);
    @(negedge clk);
    instr_in = instr; cc = c; ien = en_n; d_in = d; r_en = rn; oen = on; c_n_in = cn; c_inc_in = ci;
    @(posedge clk); #1 $display("instr=%b cc=%b ien=%b d=%h -> d_out=%h full=%b empty=%b", instr, c, en_n, d,
                                d_out, full, empty);
  endtask

  initial begin
    {c_n_in, c_inc_in, r_en, cc, ien, oen} = 6'b010001; d_in = 0; instr_in = 0;
    op(5'b00000, 0, 1);                     // instruction disabled
    op(5'b00000);                           // reset
    // every opcode with both condition codes, a few data values
    for (int i = 0; i < 32; i++)
      for (int c = 0; c < 2; c++) begin
        op(i, c, 0, 4'hF, 0, 0, 1, 1);
        op(i, c, 0, 4'h0, 1, 1, 0, 0);
        op(i, c, 0, 4'hA, 0, 0, 1, 0);
        op(i, c, 0, 4'h5, 1, 0, 0, 1);
      end
    // fill the stack with pushes (past full), then pop past empty
    op(5'b00000);
    for (int n = 0; n < 20; n++) op(5'b10110, 0, 0, n);
    for (int n = 0; n < 20; n++) op(5'b11000, 0, 0, n);
    for (int n = 0; n < 40; n++) op(5'b11100, n % 2, 0, n);
    for (int n = 0; n < 20; n++) op(5'b11011, 0, 0, ~n);
    for (int n = 0; n < 40; n++) op(5'b11101, 0, 0, n);
    // program counter wrap (fetch/increment repeatedly)
    op(5'b00000);
    for (int n = 0; n < 40; n++) op(5'b00001, 0, 0, n, 0, 0, n % 2, 1);
    // random instruction streams
    for (int k = 0; k < 3000; k++)
      op($urandom(), $urandom(), ($urandom() % 8) == 0, $urandom(), $urandom(), $urandom(), $urandom(), $urandom());
    $finish;
  end
endmodule
