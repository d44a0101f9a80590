// Interface contract of cdc_pulse_synchronizer (cvdp cdc_pulse_synchronizer_0017, issue 22): src_pulse is
// high for one src_clock cycle, so it is never high at two consecutive rising edges of src_clock while
// rst_in is low. Bins: a synchronized pulse under the clock relations the prompt lists (clock periods
// measured between rising edges), resets while idle and while a pulse is in flight.
module ecov_contract (input logic src_clock, input logic des_clock, input logic rst_in,
    input logic src_pulse, input logic des_pulse);
  logic prev;          // src_pulse was high at the previous rising edge of src_clock (out of reset)
  logic pending;       // a pulse taken by the source domain, not yet seen on des_pulse
  logic synced_once;   // some des_pulse seen since time 0
  logic reset_mid;     // a reset hit a pulse in flight; cleared by the next des_pulse
  realtime src_last, des_last, src_per, des_per;
  initial begin prev = 0; pending = 0; synced_once = 0; reset_mid = 0;
    src_last = 0; des_last = 0; src_per = 0; des_per = 0; end

  always @(posedge src_clock) begin
    if (src_last > 0) src_per = $realtime - src_last;
    src_last = $realtime;
  end
  always @(posedge des_clock) begin
    if (des_last > 0) des_per = $realtime - des_last;
    des_last = $realtime;
  end

  always @(posedge src_clock or posedge rst_in) begin
    if (rst_in) prev <= 1'b0;
    else begin
      if (src_pulse && prev) `ECOV_VIOLATION(src_pulse_one_cycle)
      prev <= src_pulse;
    end
  end

  always @(posedge src_clock) if (!rst_in && src_pulse) pending <= 1'b1;
  always @(posedge des_clock) if (!rst_in && des_pulse) begin
    pending <= 1'b0;
    synced_once <= 1'b1;
    reset_mid <= 1'b0;
    `ECOV_COVER(pulse_synchronized, 1'b1)
    `ECOV_COVER(sync_high_freq, src_per > 0 && des_per > 0 && src_per <= 4.1 && des_per <= 4.1)
    `ECOV_COVER(sync_low_freq, src_per >= 900.0 || des_per >= 900.0)
    `ECOV_COVER(sync_close_freq, src_per > 0 && des_per > 0 && src_per != des_per
                                 && src_per <= 1.2 * des_per && des_per <= 1.2 * src_per)
    `ECOV_COVER(sync_extreme_src_slow, des_per > 0 && src_per >= 50.0 * des_per)
    `ECOV_COVER(sync_extreme_src_fast, src_per > 0 && des_per >= 50.0 * src_per)
    `ECOV_COVER(pulse_after_reset, reset_mid)
  end
  always @(posedge rst_in) begin
    `ECOV_COVER(reset_idle, synced_once && !pending)
    `ECOV_COVER(reset_during_sync, pending)
    if (pending) reset_mid <= 1'b1;
    pending <= 1'b0;
  end
endmodule
