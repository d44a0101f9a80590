`timescale 1ns/1ps
module tb_Word_Change_Pulse;
  localparam DATA_WIDTH = 8;
  reg clk = 0, reset, enable, latch_pattern;
  reg [DATA_WIDTH-1:0] data_in, mask, match_pattern;
  wire word_change_pulse, pattern_match_pulse;
  wire [DATA_WIDTH-1:0] latched_pattern;

  Word_Change_Pulse #(.DATA_WIDTH(DATA_WIDTH)) uut (.clk(clk), .reset(reset), .data_in(data_in), .mask(mask),
    .match_pattern(match_pattern), .enable(enable), .latch_pattern(latch_pattern),
    .word_change_pulse(word_change_pulse), .pattern_match_pulse(pattern_match_pulse),
    .latched_pattern(latched_pattern));

  always #5 clk = ~clk;

  task automatic cyc(input [7:0] d, input [7:0] m = 8'hFF, input bit en = 1, input bit lat = 0, input [7:0] pat = 0);
    @(negedge clk); data_in = d; mask = m; enable = en; latch_pattern = lat; match_pattern = pat;
  endtask

  initial begin
    reset = 1; enable = 0; latch_pattern = 0; data_in = 0; mask = 0; match_pattern = 0;
    repeat (3) @(negedge clk); reset = 0;
    // latch patterns, then stream matching and non-matching words
    cyc(8'h00, 8'hFF, 1, 1, 8'hA5);
    cyc(8'hA5); cyc(8'hA5); cyc(8'hA5); cyc(8'h5A); cyc(8'hA5); cyc(8'hFF); cyc(8'h00);
    // walking single-bit changes under full mask
    for (int b = 0; b < DATA_WIDTH; b++) begin cyc(8'h1 << b); cyc(8'h00); end
    for (int b = 0; b < DATA_WIDTH; b++) begin cyc(~(8'h1 << b)); cyc(8'hFF); end
    // masked: changes on masked-out bits are ignored
    cyc(8'h0F, 8'hF0); cyc(8'h00, 8'hF0); cyc(8'hF0, 8'hF0); cyc(8'h00, 8'h0F);
    // pattern match with a partial mask
    cyc(8'h3C, 8'h3C, 1, 1, 8'h3C); cyc(8'h3C, 8'h3C); cyc(8'hFF, 8'h3C); cyc(8'hBD, 8'h3C);
    cyc(8'hFF, 8'hFF, 1, 1, 8'hFF); cyc(8'hFF); cyc(8'hFF); cyc(8'h00, 8'hFF, 1, 1, 8'h00); cyc(8'h00); cyc(8'h00);
    // disable clears the latched pattern and suppresses pulses
    cyc(8'h12, 8'hFF, 0); cyc(8'h34, 8'hFF, 0, 1, 8'h77); cyc(8'h34);
    // random
    repeat (600) cyc($urandom(), ($urandom() % 3) ? 8'hFF : $urandom(), $urandom() % 6 != 0,
                     $urandom() % 5 == 0, ($urandom() % 2) ? data_in : $urandom());
    // asynchronous reset while pulses are active
    cyc(8'hAA); cyc(8'h55); #2 reset = 1; #4 reset = 0;
    cyc(8'h55); cyc(8'hAA);
    $finish;
  end
endmodule
