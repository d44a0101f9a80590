// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
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

  // Scoreboard of the spec: each input pair sampled with valid_in comes out $clog2(COL_A) + 2 cycles later
  // (counting the cycle valid_in is set up in: the result shows $clog2(COL_A) + 1 rising edges after the one
  // that sampled it) with valid_out and matrix_c = A x B (flattened row by row, element (0,0) lowest); a new
  // pair may come every cycle; srst (synchronous) drops the results in flight. Inputs change on falling edges.
  localparam LAT = $clog2(COL_A) + 1;
  typedef struct { bit v; logic [ROW_A*COL_B*OW-1:0] c; } slot_t;
  slot_t m_pipe [$];
  function automatic logic [ROW_A*COL_B*OW-1:0] product(input logic [ROW_A*COL_A*IW-1:0] a,
                                                        input logic [ROW_B*COL_B*IW-1:0] b);
    product = '0;
    for (int i = 0; i < ROW_A; i++)
      for (int j = 0; j < COL_B; j++) begin
        logic [OW-1:0] s = 0;
        for (int k = 0; k < COL_A; k++) s += OW'(a[(i*COL_A + k)*IW +: IW]) * OW'(b[(k*COL_B + j)*IW +: IW]);
        product[(i*COL_B + j)*OW +: OW] = s;
      end
  endfunction
  always @(posedge clk) begin
    automatic slot_t s = '{valid_in === 1'b1 && !srst, product(matrix_a, matrix_b)};
    if (srst) foreach (m_pipe[k]) m_pipe[k].v = 0;
    m_pipe.push_back(s);
    #0.5;
    if (m_pipe.size() > LAT) begin
      automatic slot_t due = m_pipe.pop_front();
      if (valid_out !== due.v) $fatal(1, "%0t: valid_out %b, expected %b", $time, valid_out, due.v);
      if (due.v && matrix_c !== due.c) $fatal(1, "%0t: matrix_c %h, expected %h", $time, matrix_c, due.c);
    end
  end

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
