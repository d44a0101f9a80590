`timescale 1ns/1ps
module tb;
  localparam DATA_WIDTH = 16;
  reg  [DATA_WIDTH-1:0] data_in;
  reg  [1:0] sel;
  wire [DATA_WIDTH-1:0] data_out;

  nbit_swizzling #(.DATA_WIDTH(DATA_WIDTH)) uut (.data_in(data_in), .sel(sel), .data_out(data_out));

  task automatic apply(input [DATA_WIDTH-1:0] d, input [1:0] s);
    data_in = d; sel = s; #10;
  endtask

  initial begin
    // each mode with random data, then with extreme and walking patterns
    for (int s = 0; s < 4; s++) begin
      repeat (200) apply($urandom(), s);
      apply('0, s); apply('1, s); apply({DATA_WIDTH/2{2'b10}}, s); apply({DATA_WIDTH/2{2'b01}}, s);
      for (int b = 0; b < DATA_WIDTH; b++) apply(1 << b, s);
      $display("sel=%0d last out=%h", s, data_out);
    end
    // mode changes with fixed data, and fully random
    for (int k = 0; k < 40; k++) apply(16'hA5C3, k % 4);
    repeat (300) apply($urandom(), $urandom());
    $finish;
  end
endmodule
