// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam DATA_WIDTH = 16;
  reg  [DATA_WIDTH-1:0] data_in;
  reg  [1:0] sel;
  wire [DATA_WIDTH-1:0] data_out;

  nbit_swizzling #(.DATA_WIDTH(DATA_WIDTH)) uut (.data_in(data_in), .sel(sel), .data_out(data_out));

  // Model of the spec: sel 00 reverses the whole word's bit order, 01 each half's, 10 each quarter's,
  // 11 each eighth's (the "full/half/quarter/eighth reverse" tests). Checked in the middle of each 10-unit hold.
  function automatic logic [DATA_WIDTH-1:0] model(input logic [DATA_WIDTH-1:0] d, input logic [1:0] s);
    int parts = 1 << s;
    int w = DATA_WIDTH / parts;
    for (int p = 0; p < parts; p++)
      for (int i = 0; i < w; i++) model[p*w + i] = d[p*w + w - 1 - i];
  endfunction
  initial begin
    #5;
    forever begin
      if (!$isunknown(sel) && data_out !== model(data_in, sel))
        $fatal(1, "sel %b data %h: data_out %h, expected %h", sel, data_in, data_out, model(data_in, sel));
      #10;
    end
  end

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
