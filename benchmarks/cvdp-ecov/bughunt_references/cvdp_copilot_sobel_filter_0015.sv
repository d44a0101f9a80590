// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  logic clk = 0, rst_n, valid_in;
  logic [7:0] pixel_in;
  logic [7:0] edge_out;
  logic valid_out;

  sobel_filter dut (.clk(clk), .rst_n(rst_n), .pixel_in(pixel_in), .valid_in(valid_in),
    .edge_out(edge_out), .valid_out(valid_out));

  always #5 clk = ~clk;

  // Model of the spec: valid pixels stream into a 3x3 window (row by row); after 9 consecutive valid pixels
  // valid_out is high for that cycle, with edge_out = 255 when |Gx| + |Gy| of the window (the Sobel kernels:
  // Gx right column minus left column, Gy bottom row minus top row, the middle ones weighted 2) exceeds 128,
  // else 0; the next valid pixel starts a new window; a cycle without valid_in restarts the count.
  // rst_n (asynchronous) clears the window and the count. Inputs change on falling edges.
  logic [7:0] m_win [9];  // m_win[0] the oldest pixel
  int m_count = 0;
  function automatic int edge_of();
    int gx = (m_win[2] + 2 * m_win[5] + m_win[8]) - (m_win[0] + 2 * m_win[3] + m_win[6]);
    int gy = (m_win[6] + 2 * m_win[7] + m_win[8]) - (m_win[0] + 2 * m_win[1] + m_win[2]);
    return ((gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy)) > 128 ? 255 : 0;
  endfunction
  task automatic m_reset(); foreach (m_win[k]) m_win[k] = 0; m_count = 0; endtask
  initial m_reset();
  always @(negedge rst_n) m_reset();
  always @(posedge clk) if (rst_n) begin
    if (valid_in) begin
      for (int k = 0; k < 8; k++) m_win[k] = m_win[k + 1];
      m_win[8] = pixel_in;
      m_count = m_count == 9 ? 0 : m_count + 1;
    end else m_count = 0;
    #0.5;
    if (rst_n && (valid_out !== (m_count == 9) || edge_out !== (m_count == 9 ? 8'(edge_of()) : 8'd0)))
      $fatal(1, "%0t: valid_out %b edge_out %0d, expected %b %0d", $time, valid_out, edge_out, m_count == 9,
             m_count == 9 ? edge_of() : 0);
  end

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
