`timescale 1ns/1ps
module tb;
  logic [7:0]  binary_in;
  logic [11:0] bcd_out;

  binary_to_bcd uut (.binary_in(binary_in), .bcd_out(bcd_out));

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
