`timescale 1ns/1ps
module tb;
  reg  [3:0] data_in;
  wire [7:0] data_out;

  hamming_code_tx_for_4bit uut_transmitter (.data_in(data_in), .data_out(data_out));

  initial begin
    // every value up, down, then random
    for (int i = 0; i < 16; i++) begin data_in = i; #10 $display("%b -> %b", data_in, data_out); end
    for (int i = 15; i >= 0; i--) begin data_in = i; #10; end
    repeat (40) begin data_in = $urandom(); #10; end
    $finish;
  end
endmodule
