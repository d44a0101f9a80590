// SPDX-License-Identifier: Apache-2.0
// Round-robin arbiter for 4 requesters with grant locking and a starvation watchdog.
module rr_arbiter #(
    parameter int N = 4,
    parameter int STARVE_LIMIT = 12
) (
    input  logic                 clk,
    input  logic                 rst_n,
    input  logic [N-1:0]         req,
    input  logic [N-1:0]         lock,
    output logic [N-1:0]         gnt,
    output logic                 gnt_valid,
    output logic [$clog2(N)-1:0] gnt_id,
    output logic                 starved,
    output logic [$clog2(N)-1:0] starved_id,
    output logic                 diag
);
  localparam int IW = $clog2(N);

  logic [IW-1:0] last;          // index of the most recent grant
  logic [N-1:0]  mask, masked_req;
  logic [N-1:0]  pick_m_oh, pick_a_oh, next_gnt;
  logic [IW-1:0] pick_m_idx, pick_a_idx, next_id;
  logic          pick_m_any, pick_a_any;
  logic          hold;
  logic [3:0]    wait_cnt [N];

  // Requesters strictly above the last winner get priority; after requester N-1 wraps to 0.
  always_comb begin
    mask[0] = (last == IW'(N - 1));
    for (int i = 1; i < N; i++) mask[i] = (i > int'(last));
  end
  assign masked_req = req & mask;

  prio_pick #(.N(N)) u_pick_masked (.vec(masked_req), .onehot(pick_m_oh), .idx(pick_m_idx), .any(pick_m_any));
  prio_pick #(.N(N)) u_pick_all    (.vec(req),        .onehot(pick_a_oh), .idx(pick_a_idx), .any(pick_a_any));

  assign hold = gnt_valid && |(gnt & req & lock);

  always_comb begin
    if (hold) begin
      next_gnt = gnt;
      next_id  = gnt_id;
    end else if (pick_m_any) begin
      next_gnt = pick_m_oh;
      next_id  = pick_m_idx;
    end else begin
      next_gnt = pick_a_oh;
      next_id  = pick_a_idx;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      gnt       <= '0;
      gnt_valid <= 1'b0;
      gnt_id    <= '0;
      last      <= IW'(N - 1);
    end else begin
      gnt       <= next_gnt;
      gnt_valid <= hold || pick_a_any;
      gnt_id    <= next_id;
      if (!hold && pick_a_any) last <= next_id;
    end
  end

  // Watchdog: count consecutive cycles a requester waits without a grant.
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      for (int i = 0; i < N; i++) wait_cnt[i] <= '0;
      starved    <= 1'b0;
      starved_id <= '0;
    end else begin
      for (int i = 0; i < N; i++) begin
        if (!req[i] || gnt[i]) wait_cnt[i] <= '0;
        else if (wait_cnt[i] != 4'(STARVE_LIMIT)) wait_cnt[i] <= wait_cnt[i] + 1'b1;
      end
      starved <= 1'b0;
      for (int i = N - 1; i >= 0; i--) begin
        if (wait_cnt[i] == 4'(STARVE_LIMIT)) begin
          starved    <= 1'b1;
          starved_id <= IW'(i);
        end
      end
    end
  end

  // Diagnostic unlock (every cycle): K (K[1:0] = 2'b01), ~K, K+1, ~(K+1) on `{lock, req}`
  // in four consecutive cycles; anything else restarts the key. `diag` is sticky until reset.
  logic [1:0] key_step;
  logic [2*N-1:2] key_hi;  // the upper bits of K (K[1:0] is always 2'b01)
  logic       key_hit;

  always_comb begin
    case (key_step)
      2'd1:    key_hit = ({lock, req} == ~{key_hi, 2'b01});
      2'd2:    key_hit = ({lock, req} == {key_hi, 2'b01} + 1'b1);
      2'd3:    key_hit = ({lock, req} == ~({key_hi, 2'b01} + 1'b1));
      default: key_hit = (req[1:0] == 2'b01);
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      key_step <= 2'd0;
      key_hi   <= '0;
      diag     <= 1'b0;
    end else if (key_hit) begin
      if (key_step == 2'd0) key_hi <= {lock, req[N-1:2]};
      if (key_step == 2'd3) diag <= 1'b1;
      key_step <= key_step + 2'd1;
    end else begin
      key_step <= 2'd0;
    end
  end
endmodule
