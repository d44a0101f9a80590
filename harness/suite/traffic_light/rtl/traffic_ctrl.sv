// SPDX-License-Identifier: Apache-2.0
// Two-road traffic light controller with a pedestrian phase and a flashing maintenance mode.
module traffic_ctrl #(
    parameter int GREEN_MIN = 6,
    parameter int GREEN_MAX = 12,
    parameter int YELLOW    = 2,
    parameter int ALL_RED   = 2,
    parameter int WALK      = 4
) (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       car_ew,    // a car waits on the east-west road (level)
    input  logic       ped_req,   // pedestrian button (pulse, latched)
    input  logic       maint,     // maintenance: flash the lights
    output logic [2:0] ns_light,  // {red, yellow, green}
    output logic [2:0] ew_light,  // {red, yellow, green}
    output logic       walk,
    output logic       ped_waiting,
    output logic [2:0] state_o,
    output logic       diag
);
  typedef enum logic [2:0] {
    NS_GREEN  = 3'd0,
    NS_YELLOW = 3'd1,
    RED_A     = 3'd2,
    PED_WALK  = 3'd3,
    EW_GREEN  = 3'd4,
    EW_YELLOW = 3'd5,
    RED_B     = 3'd6,
    FLASH     = 3'd7
  } state_t;

  localparam logic [2:0] RED = 3'b100, YEL = 3'b010, GRN = 3'b001, OFF = 3'b000;

  state_t state, next;
  logic [3:0] timer;
  logic       blink;
  logic       ped_pend;

  always_comb begin
    next = state;
    if (maint) begin
      next = FLASH;
    end else begin
      unique case (state)
        NS_GREEN:  if (timer >= 4'(GREEN_MIN - 1) && (car_ew || ped_pend)) next = NS_YELLOW;
        NS_YELLOW: if (timer == 4'(YELLOW - 1)) next = RED_A;
        RED_A:     if (timer == 4'(ALL_RED - 1)) next = ped_pend ? PED_WALK : EW_GREEN;
        PED_WALK:  if (timer == 4'(WALK - 1)) next = car_ew ? EW_GREEN : RED_B;
        EW_GREEN:  if (timer >= 4'(GREEN_MIN - 1) && (!car_ew || timer == 4'(GREEN_MAX - 1))) next = EW_YELLOW;
        EW_YELLOW: if (timer == 4'(YELLOW - 1)) next = RED_B;
        RED_B:     if (timer == 4'(ALL_RED - 1)) next = NS_GREEN;
        FLASH:     next = RED_B;  // maint released: restart through all-red
      endcase
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state    <= RED_B;
      timer    <= '0;
      blink    <= 1'b0;
      ped_pend <= 1'b0;
    end else begin
      state <= next;
      timer <= (next != state) ? '0 : timer + 1'b1;
      blink <= (state == FLASH) ? ~blink : 1'b0;
      if (state == PED_WALK && next != PED_WALK) ped_pend <= 1'b0;
      else if (ped_req) ped_pend <= 1'b1;
    end
  end

  always_comb begin
    ns_light = RED;
    ew_light = RED;
    walk     = 1'b0;
    case (state)
      NS_GREEN:  ns_light = GRN;
      NS_YELLOW: ns_light = YEL;
      EW_GREEN:  ew_light = GRN;
      EW_YELLOW: ew_light = YEL;
      PED_WALK:  walk = 1'b1;
      FLASH: begin
        ns_light = blink ? YEL : OFF;
        ew_light = blink ? RED : OFF;
      end
      default: ;
    endcase
  end

  assign ped_waiting = ped_pend;
  assign state_o     = state;

  // Service code on `ped_req`: high pulses of exactly 4, 6, 9 and 7 cycles, the first three each followed
  // by exactly 3 low cycles and the last by at least 3, set the sticky `diag`. Anything else restarts.
  logic [3:0] code_run;   // cycles in the current high pulse or low gap (saturates at 15)
  logic [2:0] code_step;  // pulses of the code matched so far
  logic       code_gap;   // counting the low gap after a pulse
  logic [3:0] code_want;  // length the next pulse must have

  always_comb begin
    case (code_step)
      3'd0:    code_want = 4'd4;
      3'd1:    code_want = 4'd6;
      3'd2:    code_want = 4'd9;
      default: code_want = 4'd7;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      code_run  <= '0;
      code_step <= '0;
      code_gap  <= 1'b0;
      diag      <= 1'b0;
    end else if (code_gap) begin
      if (ped_req) begin  // the next pulse starts
        code_gap <= 1'b0;
        code_run <= 4'd1;
        if (code_run != 4'd3) code_step <= 3'd0;
      end else begin
        if (code_run != 4'd15) code_run <= code_run + 4'd1;
        if (code_run == 4'd2 && code_step == 3'd4) diag <= 1'b1;
      end
    end else if (ped_req) begin
      if (code_run != 4'd15) code_run <= code_run + 4'd1;
    end else if (code_run != 4'd0) begin  // a pulse just ended
      code_gap  <= 1'b1;
      code_step <= (code_run == code_want) ? code_step + 3'd1 : 3'd0;
      code_run  <= 4'd1;
    end
  end
endmodule
