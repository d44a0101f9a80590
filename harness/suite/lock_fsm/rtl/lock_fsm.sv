// SPDX-License-Identifier: Apache-2.0
// Keypad lock: four 16-bit key words in order open it; a wrong word starts over and counts a
// failure; the third failure locks the keypad out for 600 cycles unless an administrator clears it.
// An open lock relocks on request or after 200 idle cycles; a half-entered key is dropped after
// 24 idle cycles.
module lock_fsm (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        key_valid,
    input  logic [15:0] key_in,
    input  logic        lock_req,
    input  logic        admin_clr,
    output logic        unlocked,
    output logic        lockout,
    output logic        alarm,
    output logic [1:0]  fail_cnt,
    output logic [3:0]  opens,
    output logic [2:0]  state_o
);
  localparam logic [15:0] KEY[4] = '{16'hC0DE, 16'h5EED, 16'hB0A7, 16'h0F1E};
  localparam logic [15:0] ADMIN_CODE = 16'hAD51;
  localparam logic [9:0] LOCKOUT_CYCLES = 10'd600;
  localparam logic [9:0] OPEN_CYCLES = 10'd200;
  localparam logic [9:0] IDLE_CYCLES = 10'd24;

  typedef enum logic [2:0] {K0, K1, K2, K3, OPEN, LOCKOUT} state_t;

  state_t     state;
  logic [9:0] timer;
  logic [1:0] idx;

  assign idx      = state[1:0];
  assign unlocked = (state == OPEN);
  assign lockout  = (state == LOCKOUT);
  assign state_o  = state;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state    <= K0;
      timer    <= '0;
      alarm    <= 1'b0;
      fail_cnt <= '0;
      opens    <= '0;
    end else begin
      case (state)
        OPEN: begin
          if (lock_req) begin
            state <= K0;
            timer <= '0;
          end else if (key_valid) begin
            timer <= OPEN_CYCLES;  // activity keeps the lock open
          end else if (timer == '0) begin
            state <= K0;           // auto relock
          end else begin
            timer <= timer - 1'b1;
          end
        end
        LOCKOUT: begin
          if (admin_clr && key_in == ADMIN_CODE) begin
            state    <= K0;
            timer    <= '0;
            fail_cnt <= '0;
            alarm    <= 1'b0;
          end else if (timer == '0) begin
            state    <= K0;
            fail_cnt <= '0;
          end else begin
            timer <= timer - 1'b1;
          end
        end
        default: begin  // K0 .. K3: expecting key word idx
          if (key_valid) begin
            timer <= '0;
            if (key_in == KEY[idx]) begin
              if (idx == 2'd3) begin
                state    <= OPEN;
                timer    <= OPEN_CYCLES;
                fail_cnt <= '0;
                if (opens != 4'hf) opens <= opens + 1'b1;
              end else begin
                state <= state_t'(state + 1'b1);
              end
            end else if (fail_cnt == 2'd2) begin
              state    <= LOCKOUT;
              timer    <= LOCKOUT_CYCLES;
              fail_cnt <= 2'd3;
              alarm    <= 1'b1;
            end else begin
              state    <= K0;
              fail_cnt <= fail_cnt + 1'b1;
            end
          end else if (state != K0) begin
            if (timer == IDLE_CYCLES - 1'b1) begin
              state <= K0;         // entry abandoned: no failure counted
              timer <= '0;
            end else begin
              timer <= timer + 1'b1;
            end
          end
        end
      endcase
    end
  end
endmodule
