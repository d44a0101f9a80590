`timescale 1ns/1ps
module tb_apb_controller;
  logic clk = 0, reset_n;
  logic select_a_i, select_b_i, select_c_i, apb_pready_i;
  logic [31:0] addr_a_i, data_a_i, addr_b_i, data_b_i, addr_c_i, data_c_i;
  logic apb_psel_o, apb_penable_o, apb_pwrite_o;
  logic [31:0] apb_paddr_o, apb_pwdata_o;

  apb_controller dut (.clk(clk), .reset_n(reset_n), .select_a_i(select_a_i), .select_b_i(select_b_i),
    .select_c_i(select_c_i), .addr_a_i(addr_a_i), .data_a_i(data_a_i), .addr_b_i(addr_b_i),
    .data_b_i(data_b_i), .addr_c_i(addr_c_i), .data_c_i(data_c_i), .apb_psel_o(apb_psel_o),
    .apb_penable_o(apb_penable_o), .apb_paddr_o(apb_paddr_o), .apb_pwrite_o(apb_pwrite_o),
    .apb_pwdata_o(apb_pwdata_o), .apb_pready_i(apb_pready_i));

  always #5 clk = ~clk;

  // peripheral model: answers each ACCESS after `lat` cycles (lat >= 16 forces the timeout)
  int lat = 0;
  initial begin
    apb_pready_i = 0;
    forever begin
      @(posedge clk);
      if (apb_psel_o && !apb_penable_o) begin      // SETUP seen: schedule pready
        repeat (lat) @(posedge clk);
        #1 apb_pready_i = 1;
        @(posedge clk); #1 apb_pready_i = 0;
      end
    end
  end

  // events still queued or in flight: an input is never re-fired before its transfer completed
  logic [2:0] pend, qlist, cur; logic [3:0] cnt;
  wire [2:0] pick = qlist[0] ? 3'b001 : qlist[1] ? 3'b010 : qlist[2] ? 3'b100 : 3'b000;
  always @(posedge clk or negedge reset_n)
    if (!reset_n) begin pend <= 0; qlist <= 0; cur <= 0; cnt <= 0; end
    else begin
      cnt <= (apb_penable_o && !apb_pready_i) ? cnt + 4'd1 : 4'd0;
      if (!apb_psel_o) begin qlist <= pend; if (|pick) cur <= pick; pend <= pend | {select_c_i, select_b_i, select_a_i}; end
      else if (apb_penable_o && (apb_pready_i || cnt == 4'd15)) begin
        pend <= pend & ~cur; qlist <= qlist & ~cur;  // the design drops a select on the completing edge
      end else pend <= pend | {select_c_i, select_b_i, select_a_i};
    end

  task automatic tick(int n = 1); repeat (n) @(posedge clk); #1; endtask

  task automatic set_payload(input bit rnd);
    if (rnd) begin  // a queued event's address and data stay as they were when it was triggered
      logic [31:0] v [6];
      foreach (v[i]) v[i] = $urandom();
      if (!pend[0]) begin addr_a_i = v[0]; data_a_i = v[1]; end
      if (!pend[1]) begin addr_b_i = v[2]; data_b_i = v[3]; end
      if (!pend[2]) begin addr_c_i = v[4]; data_c_i = v[5]; end
    end
  endtask

  task automatic fire(input bit a, input bit b, input bit c);
    select_a_i = a; select_b_i = b; select_c_i = c; tick(); select_a_i = 0; select_b_i = 0; select_c_i = 0;
  endtask

  initial begin
    reset_n = 0; {select_a_i, select_b_i, select_c_i} = 0;
    addr_a_i = 32'hFFFF_FFFF; data_a_i = 32'hFFFF_FFFF; addr_b_i = 32'h0; data_b_i = 32'h0;
    addr_c_i = 32'hAAAA_AAAA; data_c_i = 32'h5555_5555;
    tick(2); reset_n = 1; tick(2);
    // single events with an immediately ready peripheral
    lat = 0;
    fire(1, 0, 0); tick(6); fire(0, 1, 0); tick(6); fire(0, 0, 1); tick(6);
    addr_a_i = 0; data_a_i = 0; addr_b_i = '1; data_b_i = '1; addr_c_i = 32'h5555_5555; data_c_i = 32'hAAAA_AAAA;
    fire(1, 0, 0); tick(6); fire(0, 1, 0); tick(6); fire(0, 0, 1); tick(6);
    // simultaneous events: priority A > B > C, queued
    fire(1, 1, 1); tick(15);
    fire(0, 1, 1); tick(12);
    fire(1, 0, 1); tick(12);
    // new events arriving while a transfer is in flight
    lat = 3; fire(0, 0, 1); tick(1); fire(1, 0, 0); tick(1); fire(0, 1, 0); tick(30);
    // wait states of every length, including timeout (no pready for 15 cycles)
    for (int l = 0; l <= 18; l++) begin lat = l; set_payload(1); fire(1, 0, 0); tick(l + 6); end
    lat = 40; fire(1, 1, 1); tick(70);
    // random traffic (an input fires only when its previous event completed, never two cycles in a row)
    begin
      bit [2:0] last = 0;
      for (int k = 0; k < 300; k++) begin
        bit a, b, c; bit [2:0] f; int gap;
        lat = ($urandom() % 4 == 0) ? ($urandom() % 20) : ($urandom() % 3);
        set_payload(1);
        a = $urandom() % 3 == 0; b = $urandom() % 3 == 0; c = $urandom() % 3 == 0;
        f = {c, b, a} & ~pend & ~last;
        fire(f[0], f[1], f[2]);
        gap = $urandom() % 4; tick(gap);
        last = gap == 0 ? f : 3'b000;
      end
    end
    tick(60); while (pend != 0) tick();
    // reset in the middle of a transfer
    lat = 5; fire(1, 1, 0); tick(2);
    #2 reset_n = 0; #5 reset_n = 1;
    tick(10);
    $finish;
  end
endmodule
