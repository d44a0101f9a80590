// SPDX-License-Identifier: Apache-2.0
// Reference testbench for prio_enc: walking ones/zeros, all-set, masks and random vectors,
// checked against a behavioural model.
module tb;
  logic [15:0] req = 0, mask = 0, grant;
  logic msb_first = 0, valid, multi;
  logic [3:0] idx;
  logic [4:0] count;
  int errors = 0;

  prio_enc uut (.*);

  task automatic apply(input logic [15:0] r, input logic [15:0] m, input logic dir);
    logic [15:0] act;
    int e_idx, e_cnt;
    req = r; mask = m; msb_first = dir;
    #1;
    act = r & ~m; e_idx = 0; e_cnt = $countones(act);
    if (act != 0) begin
      if (dir) begin for (int i = 0; i < 16; i++) if (act[i]) e_idx = i; end
      else begin for (int i = 15; i >= 0; i--) if (act[i]) e_idx = i; end
    end
    if (valid !== (act != 0) || idx !== 4'(e_idx) || count !== 5'(e_cnt) || multi !== (e_cnt > 1)
        || grant !== ((act != 0) ? 16'(1 << e_idx) : 16'h0)) begin
      errors++;
      $error("req=%h mask=%h dir=%b: idx=%0d(%0d) count=%0d(%0d)", r, m, dir, idx, e_idx, count, e_cnt);
    end
  endtask

  initial begin
    for (int d = 0; d < 2; d++) begin
      apply(16'h0000, 16'h0000, d[0]);
      apply(16'hFFFF, 16'h0000, d[0]);
      apply(16'hFFFF, 16'hFFFF, d[0]);
      for (int i = 0; i < 16; i++) begin
        apply(16'(1 << i), 16'h0000, d[0]);        // walking one
        apply(~16'(1 << i), 16'h0000, d[0]);       // walking zero
        apply(16'hFFFF, 16'(1 << i), d[0]);        // one masked
        apply(16'hFFFF, ~16'(1 << i), d[0]);       // all but one masked
      end
    end
    repeat (500) apply(16'($urandom), 16'($urandom) & 16'($urandom), 1'($urandom));
    if (errors == 0) $display("PASS"); else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
