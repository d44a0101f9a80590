// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  reg  [7:0] data_in;
  wire [3:0] data_out;

  hamming_code_receiver uut_receiver (.data_in(data_in), .data_out(data_out));

  // encoder used only to build valid codewords for the stimulus
  function automatic [7:0] encode(input [3:0] d);
    encode = {d[3], d[2], d[1], d[1] ^ d[2] ^ d[3], d[0], d[0] ^ d[2] ^ d[3], d[0] ^ d[1] ^ d[3], 1'b0};
  endfunction

  // Checks from the spec: a codeword (parity bits 1, 2, 4 over data bits 3, 5, 6, 7; bit 0 redundant) with
  // at most one bit in error decodes to its data (single-bit errors in bits 7:1 corrected, bit 0 ignored).
  // Checked in the middle of each 10-unit hold.
  function automatic logic [4:0] decode(input logic [7:0] v);  // {found, data}
    for (int d = 0; d < 16; d++) if ($countones((encode(4'(d)) ^ v) & 8'hFE) <= 1) return {1'b1, 4'(d)};
    return 5'b0;
  endfunction
  initial begin
    #5;
    forever begin
      automatic logic [4:0] want = decode(data_in);
      if (want[4] && data_out !== want[3:0]) $fatal(1, "%b: data_out %b, expected %b", data_in, data_out, want[3:0]);
      #10;
    end
  end

  // a codeword or a codeword with one bit flipped (the prompt allows only single-bit errors)
  function automatic bit at_most_one_error(input [7:0] v);
    at_most_one_error = 0;
    for (int d = 0; d < 16; d++)
      for (int p = 0; p <= 8; p++) if ((encode(d) ^ (p < 8 ? 8'h1 << p : 8'h0)) == v) at_most_one_error = 1;
  endfunction

  initial begin
    // clean codewords, then every single-bit error position (including the redundant bit 0)
    for (int d = 0; d < 16; d++) begin
      data_in = encode(d); #10 $display("%b -> %b", data_in, data_out);
      for (int p = 0; p < 8; p++) begin data_in = encode(d) ^ (8'h1 << p); #10; end
    end
    // every 8-bit pattern with at most one bit in error, up and down
    for (int v = 0; v < 256; v++) if (at_most_one_error(v)) begin data_in = v; #10; end
    for (int v = 255; v >= 0; v--) if (at_most_one_error(v)) begin data_in = v; #10; end
    $finish;
  end
endmodule
