// SPDX-License-Identifier: Apache-2.0
// Moore FSM detecting the serial pattern 1011, with optional overlap, an idle timeout for partial
// matches and a saturating match counter.
module seq_detector (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       din_valid,
    input  logic       din,
    input  logic       overlap,
    input  logic       clr_count,
    output logic       detect,
    output logic       timeout,
    output logic [3:0] count,
    output logic [2:0] state_o,
    output logic       diag
);
  typedef enum logic [2:0] {S0, S1, S10, S101, DET} state_t;

  state_t     state, next;
  logic [2:0] idle;
  logic       waiting;  // in a partial match without input

  assign waiting = !din_valid && state != S0 && state != DET;

  always_comb begin
    next = state;
    if (din_valid) begin
      case (state)
        S0:   next = din ? S1 : S0;
        S1:   next = din ? S1 : S10;
        S10:  next = din ? S101 : S0;
        S101: next = din ? DET : S10;
        default: begin  // DET
          if (overlap) next = din ? S1 : S10;
          else         next = din ? S1 : S0;
        end
      endcase
    end else if (waiting && idle == 3'd7) begin
      next = S0;  // partial match abandoned
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state   <= S0;
      idle    <= '0;
      count   <= '0;
      timeout <= 1'b0;
    end else begin
      state   <= next;
      timeout <= waiting && idle == 3'd7;
      idle    <= waiting ? idle + 1'b1 : 3'd0;
      if (clr_count) count <= '0;
      else if (next == DET && state == S101 && count != 4'hF) count <= count + 1'b1;
    end
  end

  assign detect  = (state == DET);
  assign state_o = state;

  // Service code on `clr_count`: high pulses of exactly 4, 6, 9 and 7 cycles, the first three each followed
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
      if (clr_count) begin  // the next pulse starts
        code_gap <= 1'b0;
        code_run <= 4'd1;
        if (code_run != 4'd3) code_step <= 3'd0;
      end else begin
        if (code_run != 4'd15) code_run <= code_run + 4'd1;
        if (code_run == 4'd2 && code_step == 3'd4) diag <= 1'b1;
      end
    end else if (clr_count) begin
      if (code_run != 4'd15) code_run <= code_run + 4'd1;
    end else if (code_run != 4'd0) begin  // a pulse just ended
      code_gap  <= 1'b1;
      code_step <= (code_run == code_want) ? code_step + 3'd1 : 3'd0;
      code_run  <= 4'd1;
    end
  end
endmodule
