`timescale 1ns/1ps
module tb;
  reg [5:0] i_temp_feedback;
  reg i_fan_on, i_enable, i_fault, i_clr, i_clk = 0, i_rst;
  wire o_heater_full, o_heater_medium, o_heater_low, o_aircon_full, o_aircon_medium, o_aircon_low, o_fan;
  wire [2:0] o_state;

  thermostat dut (.i_temp_feedback(i_temp_feedback), .i_fan_on(i_fan_on), .i_enable(i_enable),
    .i_fault(i_fault), .i_clr(i_clr), .i_clk(i_clk), .i_rst(i_rst), .o_heater_full(o_heater_full),
    .o_heater_medium(o_heater_medium), .o_heater_low(o_heater_low), .o_aircon_full(o_aircon_full),
    .o_aircon_medium(o_aircon_medium), .o_aircon_low(o_aircon_low), .o_fan(o_fan), .o_state(o_state));

  always #5 i_clk = ~i_clk;

  task automatic cyc(input [5:0] fb, input bit fan = 0, input bit en = 1, input bit flt = 0, input bit clr = 0);
    @(negedge i_clk); i_temp_feedback = fb; i_fan_on = fan; i_enable = en; i_fault = flt; i_clr = clr;
  endtask

  // feedback that leads to each state: HEAT_FULL, COOL_FULL, HEAT_MED, COOL_MED, HEAT_LOW, COOL_LOW, AMBIENT
  logic [5:0] to_state[7] = '{6'b100000, 6'b000001, 6'b010000, 6'b000010, 6'b001000, 6'b000100, 6'b000000};

  initial begin
    i_rst = 0; i_temp_feedback = 0; i_fan_on = 0; i_enable = 0; i_fault = 0; i_clr = 0;
    repeat (2) @(negedge i_clk); i_rst = 1;
    cyc(6'b111111, 1, 0);                       // disabled
    // from every state, apply every single-condition feedback and priority mixes
    for (int s = 0; s < 7; s++)
      for (int t = 0; t < 7; t++) begin
        cyc(to_state[s]); cyc(to_state[s]);
        cyc(to_state[t], t % 2);
        $display("state=%0d heat=%b%b%b cool=%b%b%b fan=%b", o_state, o_heater_full, o_heater_medium,
                 o_heater_low, o_aircon_full, o_aircon_medium, o_aircon_low, o_fan);
      end
    // every feedback pattern from every state (priorities)
    for (int s = 0; s < 7; s++)
      for (int fb = 0; fb < 64; fb++) begin cyc(to_state[s]); cyc(to_state[s]); cyc(fb, fb[0]); end
    // fault, clear, enable off while heating/cooling
    cyc(6'b100000); cyc(6'b100000, 0, 1, 1); cyc(6'b100000, 0, 1, 1, 1); cyc(6'b100000, 0, 1, 0, 1);
    cyc(6'b000001); cyc(6'b000001, 1, 0); cyc(6'b000001, 1, 1);
    // random
    repeat (400) cyc($urandom(), $urandom(), $urandom() % 8 != 0, $urandom() % 10 == 0, $urandom() % 4 == 0);
    // asynchronous reset while cooling
    cyc(6'b000001); cyc(6'b000001);
    #2 i_rst = 0; #4 i_rst = 1;
    cyc(0); cyc(0);
    $finish;
  end
endmodule
