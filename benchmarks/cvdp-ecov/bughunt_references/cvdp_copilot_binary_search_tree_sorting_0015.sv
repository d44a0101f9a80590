// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module bst_sort_tb;
  localparam DATA_WIDTH = 32, ARRAY_SIZE = 15;
  reg clk = 0, reset, start;
  reg [ARRAY_SIZE*DATA_WIDTH-1:0] data_in;
  wire [ARRAY_SIZE*DATA_WIDTH-1:0] sorted_out;
  wire done;

  binary_search_tree_sort #(.DATA_WIDTH(DATA_WIDTH), .ARRAY_SIZE(ARRAY_SIZE)) dut (
    .clk(clk), .reset(reset), .data_in(data_in), .start(start), .sorted_out(sorted_out), .done(done));

  always #5 clk = ~clk;

  // Scoreboard of the spec: the array sampled with start is sorted ascending (index 0 the smallest);
  // done pulses for one cycle when sorted_out holds it; a sort finishes (within the 400 cycles the stimulus
  // waits); the asynchronous reset clears sorted_out and done at once. Inputs change on falling edges.
  logic [DATA_WIDTH-1:0] m_want [ARRAY_SIZE];
  bit m_busy = 0, m_prev_done = 0;
  int m_cycles = 0;
  function automatic logic [ARRAY_SIZE*DATA_WIDTH-1:0] sorted_of(input logic [ARRAY_SIZE*DATA_WIDTH-1:0] d);
    logic [DATA_WIDTH-1:0] v [ARRAY_SIZE];
    for (int i = 0; i < ARRAY_SIZE; i++) v[i] = d[i*DATA_WIDTH +: DATA_WIDTH];
    v.sort();
    for (int i = 0; i < ARRAY_SIZE; i++) sorted_of[i*DATA_WIDTH +: DATA_WIDTH] = v[i];
  endfunction
  logic [ARRAY_SIZE*DATA_WIDTH-1:0] m_expect;
  always @(posedge clk) begin
    automatic bit go = !reset && start && !m_busy;
    automatic logic [ARRAY_SIZE*DATA_WIDTH-1:0] captured = data_in;
    #0.5;
    if (reset) begin m_busy = 0; m_prev_done = 0; end
    else begin
      if (done && m_prev_done) $fatal(1, "%0t: done held for more than one cycle", $time);
      if (done) begin
        if (!m_busy) $fatal(1, "%0t: done without a sort in progress", $time);
        if (sorted_out !== m_expect) $fatal(1, "%0t: sorted_out %h, expected %h", $time, sorted_out, m_expect);
        m_busy = 0;
      end else if (m_busy) begin
        m_cycles++;
        if (m_cycles >= 400) $fatal(1, "%0t: no done 400 cycles after start", $time);
      end
      if (go) begin m_busy = 1; m_cycles = 0; m_expect = sorted_of(captured); end
      m_prev_done = done;
    end
  end
  always @(posedge reset) begin
    m_busy = 0; m_prev_done = 0;
    #0.5;
    if (sorted_out !== '0 || done !== 1'b0) $fatal(1, "%0t: reset did not clear the outputs", $time);
  end

  task automatic sort(input [ARRAY_SIZE*DATA_WIDTH-1:0] d);
    @(negedge clk); data_in = d; start = 1;
    @(negedge clk); start = 0;
    data_in = ~d;            // changes during sorting are ignored
    fork : w
      wait (done);
      repeat (400) @(posedge clk);
    join_any
    disable w;
    @(negedge clk);
    $display("in=%h out=%h", d, sorted_out);
  endtask

  function automatic [ARRAY_SIZE*DATA_WIDTH-1:0] pack(input int v[ARRAY_SIZE]);
    for (int i = 0; i < ARRAY_SIZE; i++) pack[i*DATA_WIDTH +: DATA_WIDTH] = v[i];
  endfunction

  initial begin
    reset = 1; start = 0; data_in = 0;
    repeat (3) @(posedge clk); #1 reset = 0;
    sort(pack('{1, 2, 3, 4, 5, 6, 7, 14, 22, 30, 38, 46, 54, 62, 21}));             // ascending: right-leaning chain
    sort(pack('{255, 200, 150, 100, 50, 10, 0, 0, 128, 35, 198, 105, 82, 13, 7}));   // descending: left-leaning chain
    sort({15{32'd9}});             // all equal
    sort('0);
    sort('1);
    sort(pack('{128, 64, 192, 32, 96, 160, 224, 135, 200, 73, 234, 171, 108, 45, 142}));  // balanced
    sort(pack('{100, 1, 200, 2, 199, 3, 198, 195, 15, 129, 24, 124, 33, 119, 202}));     // zig-zag
    sort(pack('{50, 10, 20, 30, 40, 45, 49, 101, 78, 149, 220, 35, 71, 100, 108}));      // deep left then right
    sort(pack('{50, 90, 80, 70, 60, 55, 51, 101, 126, 57, 244, 175, 141, 114, 108}));      // deep right then left
    sort(pack('{0, 255, 0, 255, 0, 255, 0, 7, 1, 9, 3, 11, 5, 13, 14}));
    sort(pack('{170, 85, 170, 85, 170, 85, 170, 173, 91, 175, 93, 177, 95, 179, 180}));
    sort(pack('{150, 140, 130, 120, 110, 100, 90, 80, 70, 60, 50, 40, 30, 20, 10}));   // full left chain
    sort(pack('{10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150}));   // full right chain
    sort(pack('{200, 150, 140, 130, 120, 110, 100, 90, 80, 70, 60, 50, 40, 30, 20}));  // root then left chain
    sort(pack('{5, 150, 140, 130, 120, 110, 100, 90, 80, 70, 60, 50, 40, 30, 20}));    // root then right subtree left chain
    for (int k = 0; k < 60; k++) begin
      logic [ARRAY_SIZE*DATA_WIDTH-1:0] r;
      for (int i = 0; i < ARRAY_SIZE; i++) r[i*DATA_WIDTH +: DATA_WIDTH] = (k % 3 == 0) ? ($urandom() % 256) : $urandom();
      sort(r);
    end
    for (int k = 0; k < 20; k++) sort({$urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4, $urandom() % 4});
    // reset in the middle of a sort
    @(negedge clk); data_in = pack('{7, 6, 5, 4, 3, 2, 1, 56, 50, 44, 38, 32, 26, 20, 63}); start = 1;
    @(negedge clk); start = 0; repeat (10) @(negedge clk);
    reset = 1; #3 reset = 0;
    sort(pack('{3, 1, 4, 1, 5, 9, 2, 28, 15, 37, 17, 46, 75, 27, 35}));
    $finish;
  end
endmodule
