// SPDX-License-Identifier: Apache-2.0
// Reference testbench for crc_lfsr_unit: CRC check values and random messages against a model,
// LFSR full period, zero seed, PRNG-fed CRC.
module tb;
  logic clk = 0, rst_n = 0;
  logic mode16 = 0, start = 0, valid = 0, use_prng = 0, lfsr_load = 0, lfsr_en = 0;
  logic [7:0] data = 0, nbytes;
  logic [15:0] expected = 0, crc, lfsr_seed = 0, prng;
  logic match, zero_seed, period;
  int errors = 0;

  crc_lfsr_unit dut (.*);

  always #5 clk = ~clk;

  function automatic logic [15:0] crc_step(input logic m16, input logic [15:0] c, input logic [7:0] d);
    logic [15:0] n;
    if (m16) begin
      n = c ^ {d, 8'h00};
      for (int i = 0; i < 8; i++) n = n[15] ? ((n << 1) ^ 16'h1021) : (n << 1);
    end else begin
      n = {8'h00, c[7:0] ^ d};
      for (int i = 0; i < 8; i++) n[7:0] = n[7] ? ((n[7:0] << 1) ^ 8'h07) : (n[7:0] << 1);
    end
    return n;
  endfunction

  function automatic logic [15:0] lfsr_step(input logic [15:0] s);
    return s[0] ? ((s >> 1) ^ 16'hB400) : (s >> 1);
  endfunction

  task automatic tick();
    @(posedge clk); #1;
  endtask

  task automatic begin_msg(input logic m16);
    mode16 = m16; start = 1; tick(); start = 0;
    if (crc !== (m16 ? 16'hFFFF : 16'h0000) || nbytes !== 0) begin errors++; $error("bad init"); end
  endtask

  // Sends bytes, checking the CRC against the model after each one.
  task automatic send(input logic [7:0] d);
    logic [15:0] exp = crc_step(mode16, crc, d);
    data = d; valid = 1; tick(); valid = 0;
    if (crc !== exp) begin errors++; $error("crc %h expected %h", crc, exp); end
  endtask

  task automatic check_value(input logic [15:0] v);
    expected = v; #1;
    if (!match) begin errors++; $error("crc %h does not match %h", crc, v); end
    expected = ~v; #1;
    if (match) begin errors++; $error("match with wrong value"); end
  endtask

  initial begin
    string s = "123456789";
    logic [15:0] st;
    int steps;
    logic [15:0] seeds[3] = '{16'hFFFF, 16'h5A5A, 16'hA5A5};
    repeat (2) tick();
    rst_n = 1; #1;
    // Standard check values.
    begin_msg(0); foreach (s[i]) send(s[i]); check_value(16'h00F4);
    begin_msg(1); foreach (s[i]) send(s[i]); check_value(16'h29B1);
    // Random messages in both modes, including the all-ones/all-zeros bytes.
    for (int m = 0; m < 6; m++) begin
      begin_msg(m[0]);
      send(8'h00); send(8'hFF);
      repeat ($urandom_range(5, 40)) send(8'($urandom));
      expected = crc; #1 if (!match) begin errors++; $error("no match"); end
    end
    // Byte counter saturation.
    begin_msg(1);
    repeat (260) send(8'($urandom));
    if (nbytes !== 8'hFF) begin errors++; $error("nbytes did not saturate"); end
    start = 1; valid = 1; tick(); start = 0; valid = 0;   // start wins over valid
    // LFSR: zero seed guard, then a full period from a non-trivial seed.
    foreach (seeds[i]) begin
      lfsr_seed = seeds[i]; lfsr_load = 1; tick(); lfsr_load = 0;
      if (prng !== seeds[i]) begin errors++; $error("seed %h not loaded", seeds[i]); end
    end
    lfsr_seed = 16'h0000; lfsr_load = 1; tick(); lfsr_load = 0;
    if (!zero_seed || prng !== 16'h0001) begin errors++; $error("zero seed not handled"); end
    lfsr_seed = 16'hACE1; lfsr_load = 1; lfsr_en = 1; tick(); lfsr_load = 0;
    st = prng; steps = 0;
    do begin
      automatic logic [15:0] exp = lfsr_step(prng);
      tick(); steps++;
      if (prng !== exp) begin errors++; $error("lfsr %h expected %h", prng, exp); break; end
    end while (!period && steps < 70000);
    lfsr_en = 0;
    if (steps != 65535 || prng !== 16'hACE1) begin errors++; $error("period %0d", steps); end
    // PRNG-fed CRC.
    begin_msg(0); use_prng = 1;
    repeat (20) begin
      automatic logic [15:0] exp = crc_step(0, crc, prng[7:0]);
      automatic logic [15:0] exp_p = lfsr_step(prng);
      valid = 1; tick(); valid = 0;
      if (crc !== exp || prng !== exp_p) begin errors++; $error("prng-fed crc wrong"); end
      tick();
    end
    use_prng = 0;
    #1 rst_n = 0; #1 rst_n = 1;
    tick();
    if (errors == 0) $display("PASS"); else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
