// SPDX-License-Identifier: Apache-2.0
// Reference testbench for traffic_ctrl: walks every phase, checks safety rules every cycle.
module tb;
  logic diag;
  logic clk = 0, rst_n = 0;
  logic car_ew = 0, ped_req = 0, maint = 0;
  logic [2:0] ns_light, ew_light, state_o;
  logic walk, ped_waiting;
  int errors = 0;

  traffic_ctrl uut (.*);

  always #5 clk = ~clk;

  // Safety: never two greens/yellows at once, walk only when both roads are red.
  always @(negedge clk) if (rst_n) begin
    if (state_o != 3'd7 && (ns_light != 3'b100 && ew_light != 3'b100)) begin
      errors++; $error("both roads open: ns=%b ew=%b", ns_light, ew_light);
    end
    if (walk && (ns_light != 3'b100 || ew_light != 3'b100)) begin
      errors++; $error("walk while a road is open");
    end
  end

  task automatic wait_state(input logic [2:0] s, input int max_cycles);
    int n = 0;
    while (state_o != s) begin
      @(posedge clk); #1;
      if (++n > max_cycles) begin
        errors++; $error("state %0d not reached within %0d cycles (at %0d)", s, max_cycles, state_o);
        return;
      end
    end
  endtask

  task automatic press();
    ped_req = 1; @(posedge clk); #1; ped_req = 0;
  endtask

  task automatic flash(input int n);
    maint = 1; repeat (n) @(posedge clk); #1;
    if (state_o != 3'd7) begin errors++; $error("not flashing"); end
    maint = 0;
    wait_state(3'd6, 3);
  endtask

  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1; #1;
    wait_state(3'd0, 3);
    repeat (20) @(posedge clk);          // no requests: NS stays green
    #1 if (state_o != 3'd0) begin errors++; $error("left NS green without request"); end
    // Car on EW, leaves early.
    car_ew = 1;
    wait_state(3'd4, 15);
    repeat (7) @(posedge clk); #1 car_ew = 0;
    wait_state(3'd5, 2); wait_state(3'd6, 3); wait_state(3'd0, 3);
    // Car stays: EW green capped at GREEN_MAX.
    car_ew = 1;
    wait_state(3'd4, 16);
    wait_state(3'd5, 13);
    car_ew = 0;
    wait_state(3'd0, 8);
    // Pedestrian alone: walk then back to NS.
    repeat (2) @(posedge clk); #1 press();
    if (!ped_waiting) begin errors++; $error("request not latched"); end
    wait_state(3'd3, 16);
    if (!walk) begin errors++; $error("no walk"); end
    wait_state(3'd6, 5);
    wait_state(3'd0, 3);
    // Pedestrian and car: walk then EW green; a press in the last walk cycle is lost.
    press(); car_ew = 1;
    wait_state(3'd3, 16);
    repeat (3) @(posedge clk); #1 press();
    wait_state(3'd4, 2);
    if (ped_waiting) begin errors++; $error("press in last walk cycle should be lost"); end
    car_ew = 0;
    wait_state(3'd0, 12);
    // Maintenance from every state.
    flash(5);                                       // from RED_B
    wait_state(3'd0, 3); flash(4);                  // from NS_GREEN
    car_ew = 1; wait_state(3'd1, 10); flash(3);     // from NS_YELLOW
    wait_state(3'd2, 10); flash(2);                 // from RED_A
    wait_state(3'd4, 15); flash(3);                 // from EW_GREEN
    wait_state(3'd5, 30); flash(2);                 // from EW_YELLOW
    car_ew = 0; press(); wait_state(3'd3, 20); flash(3);  // from PED_WALK
    press(); wait_state(3'd3, 20);
    wait_state(3'd0, 10);
    // Service code on ped_req (spec): a wrong pulse, a wrong gap, a 16-cycle pulse, then 4, 6, 9, 7.
    ped_req = 1; repeat (5) @(posedge clk); ped_req = 0; repeat (3) @(posedge clk); ped_req = 1; repeat (4) @(posedge clk); ped_req = 0; repeat (2) @(posedge clk); ped_req = 1; repeat (16) @(posedge clk); ped_req = 0; repeat (3) @(posedge clk);
    ped_req = 1; repeat (4) @(posedge clk); ped_req = 0; repeat (3) @(posedge clk); ped_req = 1; repeat (6) @(posedge clk); ped_req = 0; repeat (3) @(posedge clk); ped_req = 1; repeat (9) @(posedge clk); ped_req = 0; repeat (3) @(posedge clk); ped_req = 1; repeat (7) @(posedge clk); ped_req = 0; repeat (16) @(posedge clk);
    if (!diag) begin errors++; $error("diag not set by the service code"); end
    // Reset while flashing.
    maint = 1; repeat (3) @(posedge clk);
    #1 rst_n = 0; #1 rst_n = 1; maint = 0;
    repeat (3) @(posedge clk);
    if (errors == 0) $display("PASS"); else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
