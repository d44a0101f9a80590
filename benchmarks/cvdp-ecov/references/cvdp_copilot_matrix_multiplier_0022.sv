`timescale 1ns/1ps
module tb;
  localparam ROW_A = 4, COL_A = 4, ROW_B = 4, COL_B = 4, IW = 8;
  localparam OW = (IW * 2) + $clog2(COL_A);
  logic clk = 0, srst, valid_in;
  logic [ROW_A*COL_A*IW-1:0] matrix_a;
  logic [ROW_B*COL_B*IW-1:0] matrix_b;
  logic valid_out;
  logic [ROW_A*COL_B*OW-1:0] matrix_c;

  matrix_multiplier #(.ROW_A(ROW_A), .COL_A(COL_A), .ROW_B(ROW_B), .COL_B(COL_B), .INPUT_DATA_WIDTH(IW))
    matrix_multiplier_inst (.clk(clk), .srst(srst), .valid_in(valid_in), .matrix_a(matrix_a),
                            .matrix_b(matrix_b), .valid_out(valid_out), .matrix_c(matrix_c));

  always #5 clk = ~clk;

  always @(posedge clk) if (valid_out) $display("C = %h", matrix_c);

  function automatic [ROW_A*COL_A*IW-1:0] rnd_matrix();
    for (int i = 0; i < ROW_A * COL_A; i++) rnd_matrix[i*IW +: IW] = $urandom();
  endfunction

  task automatic feed(input [ROW_A*COL_A*IW-1:0] a, input [ROW_B*COL_B*IW-1:0] b, input bit v = 1);
    @(negedge clk); matrix_a = a; matrix_b = b; valid_in = v;
  endtask

  function automatic [ROW_A*COL_A*IW-1:0] identity();
    identity = '0;
    for (int i = 0; i < ROW_A; i++) identity[(i*COL_A + i)*IW +: IW] = 1;
  endfunction

  initial begin
    srst = 1; valid_in = 0; matrix_a = 0; matrix_b = 0;
    repeat (2) @(negedge clk); srst = 0;
    // corner matrices
    feed('0, '0); feed('1, '1); feed('0, '0); feed('1, '1);
    feed(identity(), rnd_matrix()); feed(rnd_matrix(), identity());
    feed({ROW_A*COL_A{8'hAA}}, {ROW_B*COL_B{8'h55}});
    feed('1, '1, 0);                              // invalid input ignored
    repeat (6) feed('0, '0, 0);
    // back-to-back random inputs, then bursts with gaps
    repeat (100) feed(rnd_matrix(), rnd_matrix());
    repeat (100) feed(rnd_matrix(), rnd_matrix(), $urandom() % 2);
    // synchronous reset in the middle of the pipeline
    feed('1, '1); feed('1, '1);
    @(negedge clk); srst = 1; @(negedge clk); srst = 0;
    feed(rnd_matrix(), rnd_matrix());
    repeat (8) feed('0, '0, 0);
    $finish;
  end
endmodule
