// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
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

  // Model of the spec's counter: rst_in (asynchronous) clears it; with enable_in at a rising edge it counts
  // up (BINARY_UP, and GRAY whose output is the count's Gray code), down (BINARY_DOWN), up to ref_modulo then
  // 0 (MODULO_256), shifts right inserting the inverted LSB (JOHNSON) or rotates a single 1 left, starting
  // from 1 (RING); other mode codes are not specified (the model stops comparing until the next reset).
  // Inputs change on falling edges: stepped at rising edges, compared after both edges.
  logic [N-1:0] m_count = 0;
  bit m_known = 0;
  task automatic check(input string where);
    automatic logic [N-1:0] want = mode_in == 3'b100 ? m_count ^ (m_count >> 1) : m_count;
    if (m_known && o_count !== want) $fatal(1, "%0t (%s): mode %0d o_count %h, expected %h", $time, where, mode_in,
                                            o_count, want);
  endtask
  always @(posedge clk_in or posedge rst_in) begin
    if (rst_in) begin m_count = 0; m_known = 1; end
    else if (enable_in) begin
      case (mode_in)
        3'b000, 3'b100: m_count++;
        3'b001: m_count--;
        3'b010: m_count = m_count == ref_modulo ? '0 : m_count + 1'b1;
        3'b011: m_count = {~m_count[0], m_count[N-1:1]};
        3'b101: m_count = m_count == '0 ? N'(1) : {m_count[N-2:0], m_count[N-1]};
        default: m_known = 0;
      endcase
    end
    #0.5 check("rising edge");
  end
  always @(negedge clk_in) #0.5 check("falling edge");

  stimulus_generator #(.N(N)) stim (.clk_in(clk_in), .rst_in(rst_in), .mode_in(mode_in),
    .enable_in(enable_in), .ref_modulo(ref_modulo));

  generic_counter #(.N(N)) uut (.clk_in(clk_in), .rst_in(rst_in), .mode_in(mode_in),
    .enable_in(enable_in), .ref_modulo(ref_modulo), .o_count(o_count));
endmodule
