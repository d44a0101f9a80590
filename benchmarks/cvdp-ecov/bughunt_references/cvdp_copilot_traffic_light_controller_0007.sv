// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  reg i_clk = 0, i_rst_b, i_vehicle_sensor_input, i_short_timer, i_long_timer;
  wire o_short_trigger, o_long_trigger;
  wire [2:0] o_main, o_side;

  traffic_controller_fsm dut (.i_clk(i_clk), .i_rst_b(i_rst_b), .i_vehicle_sensor_input(i_vehicle_sensor_input),
    .i_short_timer(i_short_timer), .i_long_timer(i_long_timer), .o_short_trigger(o_short_trigger),
    .o_long_trigger(o_long_trigger), .o_main(o_main), .o_side(o_side));

  always #5 i_clk = ~i_clk;

  // Model of the spec: S1 (main green, side red, long trigger) -> S2 on a vehicle with the long timer;
  // S2 (main yellow, short trigger) -> S3 on the short timer; S3 (side green, long trigger) -> S4 when no
  // vehicle waits or the long timer expires (the stimulus list's branches); S4 (side yellow, short trigger)
  // -> S1 on the short timer. The outputs are registered: after each edge they show the state of the
  // cycle before. The asynchronous reset turns every light and trigger off, in S1, until the first edge. Inputs change on falling edges; checked after each rising edge.
  int m_st = 1;
  function automatic logic [7:0] outs(input int st);  // {main, side, short, long}
    case (st)
      1: return {3'b001, 3'b100, 1'b0, 1'b1};
      2: return {3'b010, 3'b100, 1'b1, 1'b0};
      3: return {3'b100, 3'b001, 1'b0, 1'b1};
      default: return {3'b100, 3'b010, 1'b1, 1'b0};
    endcase
  endfunction
  task automatic m_reset(); m_st = 1; endtask
  always @(negedge i_rst_b) begin
    m_reset();
    #0.5 if ({o_main, o_side, o_short_trigger, o_long_trigger} !== 8'b0) $fatal(1, "%0t: reset left lights on", $time);
  end
  initial #0.1 if (!i_rst_b) m_reset();  // no falling edge is seen at time 0
  always @(posedge i_clk) if (i_rst_b) begin
    automatic bit veh = i_vehicle_sensor_input, st = i_short_timer, lt = i_long_timer;
    automatic int shown = m_st;  // the outputs are registered: they show the state the edge left
    case (m_st)
      1: if (veh && lt) m_st = 2;
      2: if (st) m_st = 3;
      3: if (!veh || lt) m_st = 4;
      4: if (st) m_st = 1;
    endcase
    #0.5;
    if ({o_main, o_side, o_short_trigger, o_long_trigger} !== outs(shown))
      $fatal(1, "%0t: main %b side %b short %b long %b, expected state S%0d", $time, o_main, o_side,
             o_short_trigger, o_long_trigger, shown);
  end

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
    // asynchronous reset in S2 and S3
    cyc(1, 0, 1); cyc(0, 0, 0); #2 i_rst_b = 0; #4 i_rst_b = 1;
    cyc(1, 0, 1); cyc(0, 1, 0); cyc(1, 0, 0); #2 i_rst_b = 0; #4 i_rst_b = 1;
    cyc(0, 0, 0); cyc(0, 0, 0);
    $finish;
  end
endmodule
