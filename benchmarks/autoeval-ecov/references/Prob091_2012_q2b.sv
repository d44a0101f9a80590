// ECov reference testbench for Prob091_2012_q2b (original work). The spec assumes the one-hot state
// assignment y[5:0] = 000001(A), 000010(B), 000100(C), 001000(D), 010000(E), 100000(F), so y only
// ever holds one of those six codes: every (state, w) pair of the state table is applied, first in
// order, then every ordered pair of states with each w, so each input and output toggles both ways.
`timescale 1ns/1ps
module tb;
  logic [5:0] y;
  logic w;
  wire Y1, Y3;

  TopModule dut (.y(y), .w(w), .Y1(Y1), .Y3(Y3));

  task automatic apply(input int state, input logic win);
    y = 6'b000001 << state;
    w = win;
    #10;
  endtask

  initial begin
    for (int s = 0; s < 6; s++) begin
      apply(s, 1'b0);
      apply(s, 1'b1);
    end
    for (int s = 0; s < 6; s++)
      for (int n = 0; n < 6; n++)
        for (int v = 0; v < 4; v++) begin
          apply(s, v[0]);
          apply(n, v[1]);
        end
    $finish;
  end
endmodule
