// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam DATA_WIDTH = 8;
  logic i_clk = 0, i_rst_n;
  logic [DATA_WIDTH-1:0] i_adc_data_in;
  logic [3:0] i_shift_count;
  logic i_shift_direction;
  logic [DATA_WIDTH-1:0] o_processed_data;
  logic o_operation_status;

  adc_data_rotate #(.DATA_WIDTH(DATA_WIDTH)) dut (
    .i_clk(i_clk), .i_rst_n(i_rst_n), .i_adc_data_in(i_adc_data_in), .i_shift_count(i_shift_count),
    .i_shift_direction(i_shift_direction), .o_processed_data(o_processed_data),
    .o_operation_status(o_operation_status));

  always #5 i_clk = ~i_clk;

  // Model of the spec: on a rising edge out of reset, o_processed_data is i_adc_data_in rotated left (0) or
  // right (1) by i_shift_count modulo DATA_WIDTH, and o_operation_status is 1; the asynchronous active-low
  // reset clears both at once. Inputs change 1 ns after an edge: read at the edge, compared 0.5 ns later.
  function automatic logic [DATA_WIDTH-1:0] rot(input logic [DATA_WIDTH-1:0] d, input int n, input bit right);
    repeat (n % DATA_WIDTH) d = right ? {d[0], d[DATA_WIDTH-1:1]} : {d[DATA_WIDTH-2:0], d[DATA_WIDTH-1]};
    return d;
  endfunction
  logic [DATA_WIDTH-1:0] m_data = 0;
  logic m_stat = 0;
  always @(posedge i_clk) begin
    if (i_rst_n) begin m_data = rot(i_adc_data_in, i_shift_count, i_shift_direction); m_stat = 1; end
    #0.5;
    if (i_rst_n && {o_processed_data, o_operation_status} !== {m_data, m_stat})
      $fatal(1, "%0t: %h rot %0d dir %b: got %h/%b, expected %h/%b", $time, i_adc_data_in, i_shift_count,
             i_shift_direction, o_processed_data, o_operation_status, m_data, m_stat);
  end
  always @(negedge i_rst_n) begin
    m_data = 0; m_stat = 0;
    #0.5;
    if ({o_processed_data, o_operation_status} !== '0) $fatal(1, "%0t: outputs not cleared by reset", $time);
  end

  task automatic op(input [DATA_WIDTH-1:0] d, input [3:0] n, input dir);
    i_adc_data_in = d; i_shift_count = n; i_shift_direction = dir;
    @(posedge i_clk); #1;
  endtask

  initial begin
    i_rst_n = 0; i_adc_data_in = 0; i_shift_count = 0; i_shift_direction = 0;
    repeat (2) @(posedge i_clk); #1;
    i_rst_n = 1; op(8'hA5, 1, 0);
    // quick repeated resets
    repeat (3) begin #2 i_rst_n = 0; #3 i_rst_n = 1; op(8'h3C, 2, 1); end
    // every shift count in both directions on several patterns
    for (int dir = 0; dir < 2; dir++)
      for (int n = 0; n < 16; n++) begin
        op(8'h01, n, dir); op(8'h80, n, dir); op(8'hA5, n, dir);
        op(8'hFF, n, dir); op(8'h00, n, dir); op(8'h5A, n, dir);
      end
    // random
    for (int i = 0; i < 300; i++) op($urandom(), $urandom(), $urandom());
    // reset during operation
    op(8'hFF, 3, 0);
    #2 i_rst_n = 0; #10 i_rst_n = 1;
    op(8'h81, 7, 1);
    $finish;
  end
endmodule
