// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb_Bit_Difference_Counter;
  localparam BIT_WIDTH = 3, COUNT_WIDTH = $clog2(BIT_WIDTH + 1);
  reg  [BIT_WIDTH-1:0] input_A, input_B;
  wire [COUNT_WIDTH-1:0] bit_difference_count;

  Bit_Difference_Counter #(.BIT_WIDTH(BIT_WIDTH)) dut (.input_A(input_A), .input_B(input_B),
    .bit_difference_count(bit_difference_count));

  // Model of the spec: bit_difference_count is the Hamming distance of input_A and input_B (the number of
  // differing bits). Inputs change every 10 time units from 0: checked in the middle of each hold.
  initial begin
    #5;
    forever begin
      if (bit_difference_count !== COUNT_WIDTH'($countones(input_A ^ input_B)))
        $fatal(1, "A=%b B=%b: count %0d, expected %0d", input_A, input_B, bit_difference_count,
               $countones(input_A ^ input_B));
      #10;
    end
  end

  task automatic apply(input [BIT_WIDTH-1:0] a, input [BIT_WIDTH-1:0] b);
    input_A = a; input_B = b; #10 $display("A=%b B=%b -> %0d", a, b, bit_difference_count);
  endtask

  initial begin
    apply('0, '0); apply('1, '1); apply('0, '1); apply('1, '0);
    for (int i = 0; i < BIT_WIDTH; i++) begin apply('0, 1 << i); apply('1, ~(1 << i)); end
    // every pair
    for (int a = 0; a < (1 << BIT_WIDTH); a++)
      for (int b = 0; b < (1 << BIT_WIDTH); b++) apply(a, b);
    repeat (100) apply($urandom(), $urandom());
    $finish;
  end
endmodule
