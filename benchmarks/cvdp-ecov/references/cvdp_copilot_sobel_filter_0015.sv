`timescale 1ns/1ps
module tb;
  logic clk = 0, rst_n, valid_in;
  logic [7:0] pixel_in;
  logic [7:0] edge_out;
  logic valid_out;

  sobel_filter dut (.clk(clk), .rst_n(rst_n), .pixel_in(pixel_in), .valid_in(valid_in),
    .edge_out(edge_out), .valid_out(valid_out));

  always #5 clk = ~clk;

  always @(posedge clk) if (valid_out) $display("edge_out=%0d", edge_out);

  // one 3x3 window, row by row; then one idle cycle
  task automatic window(input logic [7:0] p[9], input bit gap = 1);
    for (int i = 0; i < 9; i++) begin @(negedge clk); valid_in = 1; pixel_in = p[i]; end
    @(negedge clk); valid_in = 1; pixel_in = 0;          // cycle on which the result is produced
    if (gap) begin @(negedge clk); valid_in = 0; end
  endtask

  function automatic void rnd(output logic [7:0] p[9], input int mode);
    for (int i = 0; i < 9; i++) p[i] = (mode == 0) ? $urandom() : (mode == 1 ? ($urandom() % 2) * 8'hFF : $urandom() % 16);
  endfunction

  initial begin
    logic [7:0] w[9];
    rst_n = 0; valid_in = 0; pixel_in = 0;
    repeat (2) @(negedge clk); rst_n = 1;
    window('{0, 0, 0, 0, 0, 0, 0, 0, 0});                                  // flat dark
    window('{255, 255, 255, 255, 255, 255, 255, 255, 255});                // flat bright
    window('{255, 0, 0, 255, 0, 0, 255, 0, 0});                            // vertical edges
    window('{0, 0, 255, 0, 0, 255, 0, 0, 255});
    window('{255, 255, 255, 0, 0, 0, 0, 0, 0});                            // horizontal edges
    window('{0, 0, 0, 0, 0, 0, 255, 255, 255});
    window('{255, 0, 255, 0, 255, 0, 255, 0, 255});                        // checkerboard
    window('{10, 20, 30, 40, 50, 60, 70, 80, 90});                         // weak gradient
    window('{0, 0, 64, 0, 0, 64, 0, 0, 64}); window('{0, 0, 65, 0, 0, 65, 0, 0, 0}); // near threshold
    // random windows: full range, binary, low contrast; with and without gaps
    for (int k = 0; k < 150; k++) begin rnd(w, k % 3); window(w, k % 2); end
    // valid dropped in the middle of a window
    for (int i = 0; i < 5; i++) begin @(negedge clk); valid_in = 1; pixel_in = $urandom(); end
    @(negedge clk); valid_in = 0; @(negedge clk);
    // asynchronous reset in the middle of a window
    for (int i = 0; i < 6; i++) begin @(negedge clk); valid_in = 1; pixel_in = 8'hFF; end
    #2 rst_n = 0; #4 rst_n = 1;
    rnd(w, 1); window(w);
    // random valid stream
    repeat (300) begin @(negedge clk); valid_in = $urandom() % 8 != 0; pixel_in = $urandom(); end
    $finish;
  end
endmodule
