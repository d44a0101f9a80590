`timescale 1ns/1ps
module tb;
  reg i_clk = 0, i_rst_b, i_vehicle_sensor_input, i_short_timer, i_long_timer;
  wire o_short_trigger, o_long_trigger;
  wire [2:0] o_main, o_side;

  traffic_controller_fsm dut (.i_clk(i_clk), .i_rst_b(i_rst_b), .i_vehicle_sensor_input(i_vehicle_sensor_input),
    .i_short_timer(i_short_timer), .i_long_timer(i_long_timer), .o_short_trigger(o_short_trigger),
    .o_long_trigger(o_long_trigger), .o_main(o_main), .o_side(o_side));

  always #5 i_clk = ~i_clk;

  task automatic cyc(input bit veh, input bit st, input bit lt);
    @(negedge i_clk); i_vehicle_sensor_input = veh; i_short_timer = st; i_long_timer = lt;
  endtask

  initial begin
    i_rst_b = 0; i_vehicle_sensor_input = 0; i_short_timer = 0; i_long_timer = 0;
    repeat (2) @(negedge i_clk); i_rst_b = 1;
    // S1 holds without a vehicle or without the long timer
    cyc(0, 0, 0); cyc(0, 0, 1); cyc(1, 0, 0); cyc(0, 1, 1);
    // full cycles: S1 -> S2 -> S3 -> S4 -> S1, with waits in each state
    repeat (3) begin
      cyc(1, 0, 1);                      // S1 -> S2
      cyc(1, 0, 0); cyc(0, 0, 1);        // S2 waits for short timer
      cyc(1, 1, 0);                      // S2 -> S3
      cyc(1, 0, 0); cyc(1, 1, 0);        // S3 holds while vehicle present, no long timer
      cyc(0, 0, 0);                      // S3 -> S4 (no vehicle)
      cyc(1, 0, 1);                      // S4 waits
      cyc(0, 1, 0);                      // S4 -> S1
      cyc(0, 0, 0);
    end
    // S3 exits on long timer with vehicle still present
    cyc(1, 0, 1); cyc(0, 1, 0); cyc(1, 0, 1); cyc(1, 1, 0); cyc(0, 0, 0);
    // every input combination from every state, random
    repeat (400) cyc($urandom(), $urandom(), $urandom());
    // asynchronous reset in S2 and S3, held two cycles with the other inputs inactive (1.1)
    cyc(1, 0, 1); cyc(0, 0, 0); #2 i_rst_b = 0; #14 i_rst_b = 1;
    cyc(1, 0, 1); cyc(0, 1, 0); cyc(1, 0, 0); #2 i_vehicle_sensor_input = 0; i_rst_b = 0; #14 i_rst_b = 1;
    cyc(0, 0, 0); cyc(0, 0, 0);
    $finish;
  end
endmodule
