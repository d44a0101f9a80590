`timescale 1ns/1ps
module stimulus_generator #(parameter N = 8) (
  input  logic         clk_in,
  output logic         rst_in,
  output logic [2:0]   mode_in,
  output logic         enable_in,
  output logic [N-1:0] ref_modulo
);
  task automatic run(input logic [2:0] m, input int cycles, input logic [N-1:0] modulo = '1);
    @(negedge clk_in); mode_in = m; ref_modulo = modulo; enable_in = 1;
    repeat ((cycles < 300) ? 300 : cycles) @(negedge clk_in);  // inputs held >= 300 cycles
  endtask

  task automatic pulse_reset();
    #2 rst_in = 1; #3 rst_in = 0;
  endtask

  initial begin
    rst_in = 1; mode_in = 0; enable_in = 0; ref_modulo = 0;
    #12 rst_in = 0;
    run(3'b000, 300);                       // binary up, full wrap
    enable_in = 0; repeat (300) @(negedge clk_in);   // hold
    run(3'b001, 300);                       // binary down, wrap
    pulse_reset();
    run(3'b010, 40, 8'd10);                 // modulo-N with several references
    run(3'b010, 300, 8'd255);
    run(3'b010, 20, 8'd0);
    pulse_reset();
    run(3'b010, 200, 8'hAA); run(3'b010, 200, 8'h55);
    pulse_reset();
    run(3'b011, 40);                        // Johnson
    pulse_reset();
    run(3'b100, 300);                       // Gray
    pulse_reset();
    run(3'b101, 20);                        // ring from zero
    enable_in = 0; repeat (300) @(negedge clk_in);
    run(3'b101, 20);
    run(3'b110, 3); run(3'b111, 3);         // undefined modes clear the count
    run(3'b000, 5); run(3'b111, 2);
    // random modes, enables, references, resets
    for (int k = 0; k < 300; k++) begin
      @(negedge clk_in);
      mode_in = $urandom(); enable_in = $urandom() % 4 != 0; ref_modulo = $urandom();
      if ($urandom() % 50 == 0) pulse_reset();
      repeat (300) @(negedge clk_in);        // inputs held >= 300 cycles
    end
    $finish;
  end
endmodule

module tb_generic_counter;
  localparam N = 8;
  logic clk_in = 0, rst_in, enable_in;
  logic [2:0] mode_in;
  logic [N-1:0] ref_modulo, o_count;

  always #5 clk_in = ~clk_in;

  stimulus_generator #(.N(N)) stim (.clk_in(clk_in), .rst_in(rst_in), .mode_in(mode_in),
    .enable_in(enable_in), .ref_modulo(ref_modulo));

  generic_counter #(.N(N)) uut (.clk_in(clk_in), .rst_in(rst_in), .mode_in(mode_in),
    .enable_in(enable_in), .ref_modulo(ref_modulo), .o_count(o_count));
endmodule
