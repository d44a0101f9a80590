// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
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

  // Model of the spec: each rising edge moves the FSM by the feedback (full cold -> HEAT_FULL, medium cold
  // -> HEAT_MED, low cold -> HEAT_LOW, the hot ones to COOL_*, none -> AMBIENT); disabled or faulted it goes
  // to AMBIENT with every heater and air-conditioner output off. The outputs are registered: after an edge
  // they show the state the edge left (its one heater or air-conditioner output, and the fan when any is on
  // or i_fan_on), o_state the new state. Cold and hot feedback together is outside the spec (they are
  // mutually exclusive): the model then follows o_state. i_rst (asynchronous, active low) -> AMBIENT, all 0.
  // Inputs change on falling edges.
  localparam HL = 0, HM = 1, HF = 2, AMB = 3, CL = 4, CM = 5, CF = 6;
  logic [2:0] m_st = AMB;
  function automatic logic [5:0] drive_of(input logic [2:0] st);  // {heat full, med, low, air full, med, low}
    case (st)
      HF: return 6'b100000;  HM: return 6'b010000;  HL: return 6'b001000;
      CF: return 6'b000100;  CM: return 6'b000010;  CL: return 6'b000001;
      default: return 6'b000000;
    endcase
  endfunction
  always @(negedge i_rst) begin
    m_st = AMB;
    #0.5 if ({o_heater_full, o_heater_medium, o_heater_low, o_aircon_full, o_aircon_medium, o_aircon_low, o_fan,
              o_state} !== {7'b0, 3'(AMB)}) $fatal(1, "%0t: reset: outputs not cleared", $time);
  end
  always @(posedge i_clk) if (i_rst) begin
    automatic logic [5:0] fb = i_temp_feedback;
    automatic bit on = i_enable && !i_fault, fan = i_fan_on;
    automatic bit conflict = |fb[5:3] && |fb[2:0];
    automatic logic [2:0] was = m_st;
    if (!on) m_st = AMB;
    else if (fb[5]) m_st = HF; else if (fb[4]) m_st = HM; else if (fb[3]) m_st = HL;
    else if (fb[0]) m_st = CF; else if (fb[1]) m_st = CM; else if (fb[2]) m_st = CL;
    else m_st = AMB;
    #0.5;
    if (on && conflict) m_st = o_state;
    if (o_state !== m_st) $fatal(1, "%0t: o_state %0d, expected %0d", $time, o_state, m_st);
    if ({o_heater_full, o_heater_medium, o_heater_low, o_aircon_full, o_aircon_medium, o_aircon_low} !==
        (on ? drive_of(was) : 6'b0))
      $fatal(1, "%0t: heater/aircon outputs wrong for state %0d (enabled %b)", $time, was, on);
    if (on && o_fan !== (was != AMB || fan)) $fatal(1, "%0t: o_fan %b", $time, o_fan);
  end

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
