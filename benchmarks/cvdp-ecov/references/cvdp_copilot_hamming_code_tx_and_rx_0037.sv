`timescale 1ns/1ps
module testbench_for_hamming_rx;
  localparam DATA_WIDTH = 4, PARITY_BIT = 3, ENCODED_DATA = PARITY_BIT + DATA_WIDTH + 1;
  reg  [ENCODED_DATA-1:0] data_in;
  wire [DATA_WIDTH-1:0] data_out;

  hamming_rx #(.DATA_WIDTH(DATA_WIDTH), .PARITY_BIT(PARITY_BIT)) uut_receiver (.data_in(data_in), .data_out(data_out));

  initial begin
    // every input word: clean codewords, single-bit errors, multi-bit errors
    for (int v = 0; v < (1 << ENCODED_DATA); v++) begin data_in = v; #10 $display("%b -> %b", data_in, data_out); end
    for (int v = (1 << ENCODED_DATA) - 1; v >= 0; v--) begin data_in = v; #10; end
    repeat (100) begin data_in = $urandom(); #10; end
    $finish;
  end
endmodule
