// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with the checks its spec and the design's timing allow.
`timescale 1ns/1ps
module tb;
  reg i_clk = 0, i_rst_n, i_data_in, i_ack;
  wire [3:0] o_time_left;
  wire o_processing, o_completed;

  secure_variable_timer dut (.i_clk(i_clk), .i_rst_n(i_rst_n), .i_data_in(i_data_in),
    .o_time_left(o_time_left), .o_processing(o_processing), .o_completed(o_completed), .i_ack(i_ack));

  always #5 i_clk = ~i_clk;

  // Checks from the spec the design's cycle timing allows: a timer never processes and reports completion
  // at once; a completed timer stays completed until i_ack; processing lasts at least the minimum delay
  // (1000 cycles) and at most the maximum (16000); after a synchronous reset nothing runs. Inputs change on
  // falling edges: read at rising ones, outputs compared 0.5 ns after.
  bit m_prev_done = 0, m_prev_proc = 0;
  int m_cycles = 0;
  always @(posedge i_clk) begin
    automatic logic ack = i_ack, rst = !i_rst_n;
    #0.5;
    if (o_processing === 1'b1 && o_completed === 1'b1) $fatal(1, "%0t: processing and completed at once", $time);
    if (rst && (o_processing !== 1'b0 || o_completed !== 1'b0)) $fatal(1, "%0t: a timer runs after reset", $time);
    if (!rst && m_prev_done && !ack && o_completed !== 1'b1) $fatal(1, "%0t: completion dropped without i_ack", $time);
    if (o_processing) m_cycles = m_prev_proc ? m_cycles + 1 : 1;
    if (!rst && m_prev_proc && !o_processing && o_completed && (m_cycles < 1000 || m_cycles > 16000))
      $fatal(1, "%0t: processed for %0d cycles", $time, m_cycles);
    if (m_cycles > 16000) $fatal(1, "%0t: processing past the longest delay", $time);
    m_prev_done = o_completed; m_prev_proc = o_processing;
  end

  task automatic send_bits(input logic [7:0] bits, input int n);
    for (int i = n - 1; i >= 0; i--) begin @(negedge i_clk); i_data_in = bits[i]; end
  endtask

  // start pattern 1101, 4-bit delay, wait for completion, optionally late ack
  task automatic run(input [3:0] delay, input int ack_wait);
    int guard = 0;
    send_bits({4'b1101, delay}, 8);
    @(negedge i_clk); i_data_in = 0;
    while (!o_completed && guard < 17000) begin @(negedge i_clk); guard++; end
    $display("delay=%0d completed after %0d cycles", delay, guard);
    repeat (ack_wait) @(negedge i_clk);
    i_ack = 1; @(negedge i_clk); i_ack = 0;
    repeat (2) @(negedge i_clk);
  endtask

  initial begin
    i_rst_n = 0; i_data_in = 0; i_ack = 0;
    repeat (3) @(negedge i_clk); i_rst_n = 1;
    // noise without the start pattern, near-miss patterns
    send_bits(8'b1010_0111, 8); send_bits(8'b1100_1110, 8); send_bits(8'b0000_0000, 8);
    // ack while idle has no effect
    i_ack = 1; @(negedge i_clk); i_ack = 0;
    run(4'd0, 3);
    run(4'd15, 0);
    run(4'b1010, 5);
    run(4'b0101, 1);
    run(4'd1, 2);
    // overlapping pattern (1101101...) and start right after ack
    send_bits(8'b1101_1011, 8);
    begin int g = 0; while (!o_completed && g < 17000) begin @(negedge i_clk); g++; end end
    i_ack = 1; @(negedge i_clk); i_ack = 0;
    // reset during configuration and during counting
    send_bits(8'b0000_1101, 8); send_bits(8'b01, 2);
    #2 i_rst_n = 0; @(negedge i_clk); i_rst_n = 1;
    send_bits(8'b1101_0011, 8); repeat (1500) @(negedge i_clk);
    #2 i_rst_n = 0; @(negedge i_clk); i_rst_n = 1;
    // random serial data (can start timers; ack them)
    repeat (300) begin
      @(negedge i_clk); i_data_in = $urandom(); i_ack = o_completed;
    end
    $finish;
  end
endmodule
