// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module testbench_for_hamming_rx;
  localparam DATA_WIDTH = 4, PARITY_BIT = 3, ENCODED_DATA = PARITY_BIT + DATA_WIDTH + 1;
  reg  [ENCODED_DATA-1:0] data_in;
  wire [DATA_WIDTH-1:0] data_out;

  hamming_rx #(.DATA_WIDTH(DATA_WIDTH), .PARITY_BIT(PARITY_BIT)) uut_receiver (.data_in(data_in), .data_out(data_out));

  // Model of the spec: the parity check (XOR of the indices of the set bits 1..ENCODED_DATA-1) names the
  // erroneous position, which is inverted (never the redundant bit 0); data_out takes the non-power-of-two
  // positions of the corrected word, lowest index to the LSB. Checked in the middle of each 10-unit hold.
  function automatic logic [DATA_WIDTH-1:0] model(input logic [ENCODED_DATA-1:0] v);
    int s = 0, n = 0;
    logic [DATA_WIDTH-1:0] d = 0;
    for (int i = 1; i < ENCODED_DATA; i++) if (v[i]) s ^= i;
    if (s != 0 && s < ENCODED_DATA) v[s] = ~v[s];
    for (int i = 1; i < ENCODED_DATA; i++) if ((i & (i - 1)) != 0) begin d[n] = v[i]; n++; end
    return d;
  endfunction
  initial begin
    #5;
    forever begin
      if (!$isunknown(data_in) && data_out !== model(data_in))
        $fatal(1, "%b: data_out %b, expected %b", data_in, data_out, model(data_in));
      #10;
    end
  end

  // a golden codeword or one with a single bit flipped (the prompt allows only single-bit errors): the
  // parity checks point at the flipped bit, and a set redundant bit leaves no other bit to flip
  function automatic bit at_most_one_error(input [ENCODED_DATA-1:0] v);
    int s = 0;
    for (int i = 1; i < ENCODED_DATA; i++) if (v[i]) s ^= i;
    return v[0] ? (s == 0) : (s < ENCODED_DATA);
  endfunction

  initial begin
    // every input word with at most one bit in error: clean codewords, single-bit errors
    for (int v = 0; v < (1 << ENCODED_DATA); v++) if (at_most_one_error(v)) begin data_in = v; #10 $display("%b -> %b", data_in, data_out); end
    for (int v = (1 << ENCODED_DATA) - 1; v >= 0; v--) if (at_most_one_error(v)) begin data_in = v; #10; end
    repeat (100) begin logic [ENCODED_DATA-1:0] r = $urandom(); if (at_most_one_error(r)) begin data_in = r; #10; end end
    $finish;
  end
endmodule
