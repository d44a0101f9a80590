`timescale 1ns/1ps
module tb;
  localparam N = 8;
  logic clk = 0, reset;
  logic [N-1:0] req_i;
  logic [N-1:0] gnt_o;

  single_cycle_arbiter #(.N(N)) uut (.clk(clk), .reset(reset), .req_i(req_i), .gnt_o(gnt_o));

  always #5 clk = ~clk;

  task automatic drive(input [N-1:0] r);
    @(negedge clk); req_i = r; #1 $display("req=%b gnt=%b", req_i, gnt_o);
  endtask

  initial begin
    reset = 1; req_i = 0;
    repeat (3) @(negedge clk); reset = 0;
    drive('0);
    for (int i = 0; i < N; i++) begin drive(1 << i); drive('0); end        // single requests
    drive('1); drive(8'h81); drive(8'hAA); drive(8'h55); drive(8'hF0); drive(8'h0F);
    for (int i = 0; i < N; i++) drive(8'hFF << i);                           // shifting windows
    for (int i = 0; i < N; i++) drive(8'h80 >> i);
    for (int v = 0; v < (1 << N); v++) drive(v);                             // every pattern
    repeat (50) drive($urandom());
    reset = 1; drive(8'hFF); drive(8'hFF); reset = 0; drive(8'h00);   // held two cycles (Reset Handling)
    $finish;
  end
endmodule
