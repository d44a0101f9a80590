// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  logic [7:0]  binary_in;
  logic [11:0] bcd_out;

  binary_to_bcd uut (.binary_in(binary_in), .bcd_out(bcd_out));

  // Model of the spec: bcd_out holds the three decimal digits of binary_in (hundreds, tens, ones).
  // Inputs change every 5 time units from 0: checked in the middle of each hold.
  function automatic logic [11:0] bcd(input logic [7:0] v);
    return {4'(v / 100), 4'((v / 10) % 10), 4'(v % 10)};
  endfunction
  initial begin
    #2.5;
    forever begin
      if (bcd_out !== bcd(binary_in)) $fatal(1, "%0d: bcd_out %h, expected %h", binary_in, bcd_out, bcd(binary_in));
      #5;
    end
  end

  initial begin
    // fixed and boundary values
    foreach (fixed[i]) begin binary_in = fixed[i]; #5 $display("%0d -> %h", binary_in, bcd_out); end
    // every input, ascending then descending
    for (int v = 0; v < 256; v++) begin binary_in = v; #5; end
    for (int v = 255; v >= 0; v--) begin binary_in = v; #5; end
    // random
    repeat (200) begin binary_in = $urandom(); #5; end
    $finish;
  end
  int fixed[] = '{0, 1, 9, 10, 15, 45, 99, 100, 123, 199, 200, 255, 128, 64, 32, 16, 8, 4, 2};
endmodule
