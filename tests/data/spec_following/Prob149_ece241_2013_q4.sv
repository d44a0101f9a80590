// A testbench written from Prob149_ece241_2013_q4's spec (issue 32): it walks the water level through
// the table's sensor readings and also drives the four readings the table does not list (a sensor that
// fails). The spec states no rule on `s`, so every value must be legal stimulus.
module tb;
  logic clk = 0, reset;
  logic [2:0] s;
  wire fr2, fr1, fr0, dfr;
  TopModule dut (.clk(clk), .reset(reset), .s(s), .fr2(fr2), .fr1(fr1), .fr0(fr0), .dfr(dfr));
  always #5 clk = ~clk;
  initial begin
    s = 0; reset = 1; @(negedge clk); reset = 0;
    for (int i = 0; i < 3; i++) begin
      s = 3'b000; @(negedge clk); s = 3'b001; @(negedge clk); s = 3'b011; @(negedge clk); s = 3'b111;
      @(negedge clk); s = 3'b011; @(negedge clk); s = 3'b001; @(negedge clk);
    end
    for (int v = 0; v < 8; v++) begin s = v[2:0]; repeat (2) @(negedge clk); end
    reset = 1; @(negedge clk); reset = 0; @(negedge clk);
    $finish;
  end
endmodule
