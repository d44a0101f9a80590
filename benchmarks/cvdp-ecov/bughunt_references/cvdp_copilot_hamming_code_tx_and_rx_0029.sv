// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  reg  [3:0] data_in;
  wire [7:0] data_out;

  hamming_code_tx_for_4bit uut_transmitter (.data_in(data_in), .data_out(data_out));

  // Model of the spec: data_out[0] = 0, data bits at 3, 5, 6, 7 (data_in[0..3]), even-parity bits
  // data_out[1] = d0^d1^d3, data_out[2] = d0^d2^d3, data_out[4] = d1^d2^d3. Checked in the middle of each
  // 10-unit hold.
  function automatic logic [7:0] encode(input logic [3:0] d);
    return {d[3], d[2], d[1], d[1] ^ d[2] ^ d[3], d[0], d[0] ^ d[2] ^ d[3], d[0] ^ d[1] ^ d[3], 1'b0};
  endfunction
  initial begin
    #5;
    forever begin
      if (data_out !== encode(data_in)) $fatal(1, "%b: data_out %b, expected %b", data_in, data_out, encode(data_in));
      #10;
    end
  end

  initial begin
    // every value up, down, then random
    for (int i = 0; i < 16; i++) begin data_in = i; #10 $display("%b -> %b", data_in, data_out); end
    for (int i = 15; i >= 0; i--) begin data_in = i; #10; end
    repeat (40) begin data_in = $urandom(); #10; end
    $finish;
  end
endmodule
