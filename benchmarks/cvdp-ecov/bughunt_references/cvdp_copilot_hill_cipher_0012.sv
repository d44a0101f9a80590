// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  logic clk = 0, reset, start;
  logic [14:0] plaintext;
  logic [44:0] key;
  logic [14:0] ciphertext;
  logic done;

  hill_cipher uut (.clk(clk), .reset(reset), .start(start), .plaintext(plaintext), .key(key),
    .ciphertext(ciphertext), .done(done));

  always #5 clk = ~clk;

  // Scoreboard of the spec: start (in IDLE) leads through COMPUTE and COMPUTE_MOD to DONE, where done is
  // high for one cycle (from the second edge after the one that saw start) and each ciphertext letter is
  // (K_r0 * P0 + K_r1 * P1 + K_r2 * P2) mod 26 for its key row r. The design keeps the sum of the three
  // residues in 6 bits, so a letter is compared where that sum stays below 64. reset clears everything.
  // Inputs change on falling edges: read at rising ones.
  logic [14:0] m_p;
  logic [44:0] m_k;
  int m_step = -1;  // edges since start was seen in IDLE; -1 idle
  always @(posedge clk) begin
    automatic bit go = start && !reset;
    #0.5;
    if (reset) m_step = -1;
    else begin
      if (m_step >= 0) m_step++;
      if (m_step == 2) begin
        if (done !== 1'b1) $fatal(1, "%0t: done missing two cycles after start", $time);
        for (int r = 0; r < 3; r++) begin
          automatic int sum = 0;
          for (int c = 0; c < 3; c++) sum += (int'(m_k[(8 - 3*r - c)*5 +: 5]) * int'(m_p[(2 - c)*5 +: 5])) % 26;
          if (sum < 64 && ciphertext[(2 - r)*5 +: 5] !== 5'(sum % 26))
            $fatal(1, "%0t: p=%h k=%h letter %0d = %0d, expected %0d", $time, m_p, m_k, r,
                   ciphertext[(2 - r)*5 +: 5], sum % 26);
        end
        m_step = -1;
      end else if (done !== 1'b0) $fatal(1, "%0t: done outside the DONE cycle", $time);
      if (go && m_step < 0) begin m_step = 0; m_p = plaintext; m_k = key; end
    end
  end
  always @(posedge reset) begin
    m_step = -1;
    #0.5 if (ciphertext !== 15'h0 || done !== 1'b0) $fatal(1, "%0t: reset did not clear the outputs", $time);
  end

  task automatic encrypt(input [14:0] p, input [44:0] k);
    int guard = 0;
    @(negedge clk); plaintext = p; key = k; start = 1;
    @(negedge clk); start = 0;
    while (!done && guard < 10) begin @(negedge clk); guard++; end
    $display("p=%h k=%h -> c=%h", p, k, ciphertext);
  endtask

  function automatic [14:0] letters(input int a, input int b, input int c);
    return {a[4:0], b[4:0], c[4:0]};
  endfunction

  initial begin
    reset = 1; start = 0; plaintext = 0; key = 0;
    repeat (2) @(negedge clk); reset = 0;
    encrypt(15'h0000, 45'h0);
    encrypt(15'h7FFF, 45'h1FFF_FFFF_FFFF);
    encrypt(letters(25, 25, 25), {9{5'd25}});
    encrypt(letters(0, 1, 2), {5'd6, 5'd24, 5'd1, 5'd13, 5'd16, 5'd10, 5'd20, 5'd17, 5'd15});  // classic key
    encrypt(letters(7, 4, 11), {5'd1, 5'd0, 5'd0, 5'd0, 5'd1, 5'd0, 5'd0, 5'd0, 5'd1});        // identity
    encrypt(15'h5555, 45'h0AAA_AAAA_AAAA); encrypt(15'h2AAA, 45'h1555_5555_5555);
    // consecutive requests, back to back (start is a one-cycle strobe, the next one right after done)
    encrypt(letters(3, 14, 15), {9{5'd9}}); encrypt(letters(3, 14, 15), {9{5'd9}});
    repeat (3) @(negedge clk);
    // random letters and keys, then fully random bit patterns
    for (int n = 0; n < 150; n++) begin
      logic [44:0] k;
      for (int i = 0; i < 9; i++) k[i*5 +: 5] = $urandom() % 26;
      encrypt(letters($urandom() % 26, $urandom() % 26, $urandom() % 26), k);
    end
    for (int n = 0; n < 150; n++) encrypt($urandom(), {$urandom(), $urandom()});
    // asynchronous reset during computation
    @(negedge clk); plaintext = 15'h1234; key = 45'h1234_5678_9ABC; start = 1;
    @(negedge clk); start = 0; #2 reset = 1; #4 reset = 0;
    encrypt(letters(19, 20, 21), {9{5'd3}});
    $finish;
  end
endmodule
