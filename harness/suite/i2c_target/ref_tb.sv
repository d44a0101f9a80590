// SPDX-License-Identifier: Apache-2.0
// Reference testbench for i2c_target: a bit-banged controller on an open-drain SDA line writes and
// reads every register (auto-increment, wrap), hits each NACK case (other address, pointer out of
// range, write to the ID register, controller NACK on read), repeated START, STOP inside a byte,
// bus glitches and a mid-run reset, checked against a register model.
module tb;
  localparam int H = 6;                 // clk cycles per SCL half period
  localparam logic [6:0] ADDR = 7'h3A;

  logic       clk = 0, rst_n = 0;
  logic       scl = 1, sda_m = 1;
  wire        sda;
  logic       sda_oe, busy, err;
  logic [7:0] reg0, reg1, reg2;
  logic [7:0] m_regs[4] = '{8'h00, 8'h00, 8'h00, 8'hC4};
  logic [1:0] m_ptr = 0;
  logic       m_err = 0;
  int         errors = 0;

  assign sda = sda_m & ~sda_oe;         // open drain, pulled up

  i2c_target dut (.clk, .rst_n, .scl, .sda, .sda_oe, .reg0, .reg1, .reg2, .busy, .err);

  always #5 clk = ~clk;

  task automatic wait_clk(input int n);
    repeat (n) @(posedge clk);
    #1;
  endtask

  task automatic check_regs();
    if (reg0 !== m_regs[0] || reg1 !== m_regs[1] || reg2 !== m_regs[2] || err !== m_err) begin
      errors++;
      $error("regs %h %h %h err %b, model %h %h %h %b", reg0, reg1, reg2, err, m_regs[0],
             m_regs[1], m_regs[2], m_err);
    end
  endtask

  // Bus conditions; every task starts and ends with SCL low except start/stop as noted.
  task automatic start_cond();          // from idle (SCL and SDA high) or from SCL low (repeated)
    if (!scl) begin
      wait_clk(2); sda_m = 1; wait_clk(H); scl = 1; wait_clk(H);
    end
    sda_m = 0; wait_clk(H); scl = 0;
  endtask

  task automatic stop_cond();
    wait_clk(2); sda_m = 0; wait_clk(H); scl = 1; wait_clk(H); sda_m = 1; wait_clk(H);
    if (busy) begin errors++; $error("busy after STOP"); end
  endtask

  task automatic write_bit(input logic b);
    wait_clk(2); sda_m = b; wait_clk(H); scl = 1; wait_clk(H); scl = 0;
  endtask

  task automatic read_bit(output logic b);
    wait_clk(2); sda_m = 1; wait_clk(H); scl = 1; wait_clk(H / 2); b = sda; wait_clk(H - H / 2);
    scl = 0;
  endtask

  // Sends a byte and returns 1 when the target acknowledged it.
  task automatic write_byte(input logic [7:0] d, output logic acked);
    logic b;
    for (int i = 7; i >= 0; i--) write_bit(d[i]);
    read_bit(b);
    acked = !b;
  endtask

  task automatic read_byte(input logic ack_it, output logic [7:0] d);
    for (int i = 7; i >= 0; i--) read_bit(d[i]);
    write_bit(!ack_it);
  endtask

  task automatic expect_ack(input logic got, input logic want, input string what);
    if (got !== want) begin errors++; $error("%s: ack %b, expected %b", what, got, want); end
  endtask

  // Register write transaction: pointer then data bytes, with the model's ACK expectations.
  task automatic wr(input logic [7:0] p, input logic [7:0] data[], input logic do_stop = 1);
    logic a;
    start_cond();
    write_byte({ADDR, 1'b0}, a); expect_ack(a, 1, "address (write)");
    write_byte(p, a);
    expect_ack(a, p < 4, "pointer");
    if (p < 4) begin
      m_ptr = p[1:0];
      foreach (data[i]) begin
        write_byte(data[i], a);
        expect_ack(a, m_ptr != 3, "data");
        if (m_ptr == 3) begin m_err = 1; break; end
        m_regs[m_ptr] = data[i];
        m_ptr++;
      end
    end else m_err = 1;
    if (do_stop) stop_cond();
    check_regs();
  endtask

  // Register read transaction from the current pointer, n bytes (NACK on the last).
  task automatic rd(input int n);
    logic a;
    logic [7:0] d;
    start_cond();
    write_byte({ADDR, 1'b1}, a); expect_ack(a, 1, "address (read)");
    for (int i = 0; i < n; i++) begin
      read_byte(i < n - 1, d);
      if (d !== m_regs[m_ptr]) begin
        errors++; $error("read reg %0d: %h, expected %h", m_ptr, d, m_regs[m_ptr]);
      end
      m_ptr++;
    end
    stop_cond();
  endtask

  initial begin
    logic a;
    logic [7:0] d;
    wait_clk(3);
    rst_n = 1;
    wait_clk(4);
    wr(8'd0, '{8'hff, 8'h00, 8'ha5});
    wr(8'd1, '{8'hff, 8'hff});            // wraps to the ID register: NACK, err
    rd(4);                                // from reg 3 (pointer wrapped): ID, 0, 1, 2
    wr(8'd0, '{8'h00, 8'hff});
    wr(8'd2, '{8'h00});
    wr(8'd0, '{});
    rd(4);
    rd(5);                                // wraps again
    wr(8'd4, '{8'h12});                   // pointer out of range
    wr(8'd255, '{});
    wr(8'd3, '{8'h55});                   // write to the ID register
    // Another address: ignored until the next START, then a repeated START to our address.
    start_cond();
    write_byte({ADDR ^ 7'h01, 1'b0}, a); expect_ack(a, 0, "other address");
    write_byte(8'h00, a); expect_ack(a, 0, "ignored byte");
    start_cond();
    write_byte({ADDR ^ 7'h40, 1'b1}, a); expect_ack(a, 0, "other address (read)");
    start_cond();
    write_byte({ADDR, 1'b0}, a); expect_ack(a, 1, "address after repeated START");
    write_byte(8'd1, a); m_ptr = 1;
    start_cond();                         // repeated START into a read
    write_byte({ADDR, 1'b1}, a);
    read_byte(1, d); m_ptr++;
    if (d !== m_regs[1]) begin errors++; $error("combined read %h", d); end
    read_byte(0, d); m_ptr++;
    stop_cond();
    // STOP inside a byte aborts the transfer; a START during a read too (reg1 = 0xff, so the
    // target leaves SDA high and the controller can form the START).
    start_cond();
    write_byte({ADDR, 1'b0}, a); write_byte(8'd1, a); m_ptr = 1;
    write_bit(1); write_bit(0);
    stop_cond();
    check_regs();
    start_cond();
    write_byte({ADDR, 1'b1}, a);
    read_bit(d[7]); read_bit(d[6]);
    start_cond();
    write_byte({ADDR, 1'b0}, a); write_byte(8'd0, a); m_ptr = 0;
    write_byte(8'h3c, a); m_regs[0] = 8'h3c; m_ptr = 1;
    stop_cond();
    check_regs();
    // Random transactions.
    for (int i = 0; i < 40; i++) begin
      logic [7:0] data[];
      data = new[$urandom_range(3)];
      foreach (data[j]) data[j] = $urandom;
      if ($urandom_range(1)) wr(8'($urandom_range(4)), data);
      else begin
        wr(8'($urandom_range(3)), '{});
        rd($urandom_range(4, 1));
      end
    end
    // Mid-transaction reset.
    start_cond();
    write_byte({ADDR, 1'b0}, a); write_bit(0);
    rst_n = 0; wait_clk(2);
    m_regs = '{8'h00, 8'h00, 8'h00, 8'hC4}; m_err = 0; m_ptr = 0;
    check_regs();
    rst_n = 1;
    scl = 1; sda_m = 1; wait_clk(H);
    wr(8'd2, '{8'h81});
    rd(2);
    if (errors == 0) $display("PASS");
    else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
