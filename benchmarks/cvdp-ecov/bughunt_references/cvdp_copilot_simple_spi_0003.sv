// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  reg i_clk = 0, i_rst_b, i_enable, i_fault, i_clear;
  reg [15:0] i_data_in;
  wire o_spi_cs_b, o_spi_clk, o_spi_data, o_done;
  wire [4:0] o_bits_left;
  wire [1:0] o_fsm_state;

  spi_fsm dut (.i_clk(i_clk), .i_rst_b(i_rst_b), .i_data_in(i_data_in), .i_enable(i_enable),
    .i_fault(i_fault), .i_clear(i_clear), .o_spi_cs_b(o_spi_cs_b), .o_spi_clk(o_spi_clk),
    .o_spi_data(o_spi_data), .o_bits_left(o_bits_left), .o_done(o_done), .o_fsm_state(o_fsm_state));

  always #5 i_clk = ~i_clk;

  // Scoreboard of the spec at the SPI-bus level: in Idle and Error the bus is quiet (cs_b 1, clk 0, data 0),
  // Error also shows no done; o_done is a one-cycle pulse; a transmission of 16 bits
  // (one per rising o_spi_clk while cs_b is low) ending in o_done sends the data word present when chip
  // select fell, MSB first (the design's clock toggling leaves other transmissions uncompared).
  // Inputs change on falling edges; outputs checked after each rising edge.
  logic [15:0] m_word, m_got;
  int m_n = 0;
  logic [1:0] m_prev_state = 0;
  bit m_prev_done = 0, m_on = 0;
  always @(negedge i_rst_b) begin m_n = 0; m_prev_state = 0; m_prev_done = 0; m_on = 1; end
  initial #0.1 if (!i_rst_b) m_on = 1;  // no falling edge is seen at time 0
  always @(negedge o_spi_cs_b) if (i_rst_b) begin m_n = 0; m_got = 0; m_word = i_data_in; end
  always @(posedge o_spi_clk) if (i_rst_b && o_spi_cs_b === 1'b0) begin m_got = {m_got[14:0], o_spi_data}; m_n++; end
  always @(posedge i_clk) if (i_rst_b && m_on) begin
    #0.5;
    if (i_rst_b) begin
      if ((o_fsm_state == 2'b00 || o_fsm_state == 2'b11) && {o_spi_cs_b, o_spi_clk, o_spi_data} !== 3'b100)
        $fatal(1, "%0t: state %b: cs_b %b clk %b data %b", $time, o_fsm_state, o_spi_cs_b, o_spi_clk, o_spi_data);
      if (o_fsm_state == 2'b11 && o_done !== 1'b0) $fatal(1, "%0t: o_done in the error state", $time);
      if (o_done && m_prev_done) $fatal(1, "%0t: o_done longer than one cycle", $time);
      if (o_done && o_fsm_state != 2'b11 && m_n == 16 && m_got !== m_word)
        $fatal(1, "%0t: done after 16 bits %h, expected %h", $time, m_got, m_word);
      m_prev_state = o_fsm_state; m_prev_done = o_done;
    end
  end

  task automatic send(input [15:0] d);
    int guard = 0;
    @(negedge i_clk); i_data_in = d; i_enable = 1; i_fault = 0; i_clear = 0;
    while (!o_done && guard < 60) begin @(negedge i_clk); guard++; end
    $display("sent %h in %0d cycles", d, guard);
  endtask

  initial begin
    i_rst_b = 0; i_enable = 0; i_fault = 0; i_clear = 0; i_data_in = 0;
    repeat (2) @(negedge i_clk); i_rst_b = 1;
    repeat (2) @(negedge i_clk);                         // disabled idle
    send(16'hFFFF); send(16'h0000); send(16'hA5A5); send(16'h5A5A); send(16'h8001);
    i_enable = 0; repeat (2) @(negedge i_clk);
    // clear while idle and enabled
    @(negedge i_clk); i_enable = 1; i_clear = 1; @(negedge i_clk); i_clear = 0; i_enable = 0;
    // fault during transmission, stay in error, then clear (with and without fault still high)
    @(negedge i_clk); i_data_in = 16'h1234; i_enable = 1;
    repeat (7) @(negedge i_clk); i_fault = 1; repeat (3) @(negedge i_clk);
    i_clear = 1; @(negedge i_clk); i_clear = 0; @(negedge i_clk);
    i_fault = 0; repeat (2) @(negedge i_clk);
    i_clear = 1; @(negedge i_clk); i_clear = 0; repeat (3) @(negedge i_clk);
    // disable in the middle of a transfer
    send(16'hC3C3);
    @(negedge i_clk); i_data_in = 16'h0F0F; i_enable = 1; repeat (9) @(negedge i_clk); i_enable = 0;
    repeat (3) @(negedge i_clk);
    // random data and random control
    repeat (20) send($urandom());
    repeat (400) begin
      @(negedge i_clk); i_enable = $urandom() % 8 != 0; i_fault = $urandom() % 16 == 0;
      i_clear = $urandom() % 8 == 0; i_data_in = $urandom();
    end
    // asynchronous reset mid-transfer
    send(16'h1111);
    @(negedge i_clk); i_data_in = 16'hFFFF; i_enable = 1; i_fault = 0; i_clear = 0; repeat (5) @(negedge i_clk);
    #2 i_rst_b = 0; #4 i_rst_b = 1;
    send(16'h2222);
    $finish;
  end
endmodule
