// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module binary_search_tree_search_node_tb;
  localparam DATA_WIDTH = 16, ARRAY_SIZE = 15;
  localparam PW = $clog2(ARRAY_SIZE) + 1;
  localparam [PW-1:0] NIL = {PW{1'b1}};

  reg clk = 0, reset, start;
  reg [DATA_WIDTH-1:0] search_key;
  reg [PW-1:0] root;
  reg [ARRAY_SIZE*DATA_WIDTH-1:0] keys;
  reg [ARRAY_SIZE*PW-1:0] left_child, right_child;
  wire [PW-1:0] key_position;
  wire complete_found, search_invalid;

  search_binary_search_tree #(.DATA_WIDTH(DATA_WIDTH), .ARRAY_SIZE(ARRAY_SIZE)) dut (
    .clk(clk), .reset(reset), .start(start), .search_key(search_key), .root(root), .keys(keys),
    .left_child(left_child), .right_child(right_child), .key_position(key_position),
    .complete_found(complete_found), .search_invalid(search_invalid));

  always #5 clk = ~clk;

  // Scoreboard of the spec: the tree given by root/keys/left_child/right_child (sampled with start) is
  // read in order; a key in it completes with complete_found (one cycle) and key_position = its position
  // in the sorted order (the first, where the key repeats); a key not in it, or an empty tree, ends with
  // search_invalid (one cycle) and key_position all ones. Each search ends within the 200 cycles the
  // stimulus waits. The asynchronous reset clears the flags and sets key_position to all ones.
  bit m_busy = 0, m_found = 0;
  int m_pos = 0, m_cycles = 0;
  logic [DATA_WIDTH-1:0] m_inorder [$];
  task automatic walk(input int node, input int depth);
    if (node == NIL || depth > ARRAY_SIZE) return;
    walk(left_child[node*PW +: PW], depth + 1);
    m_inorder.push_back(keys[node*DATA_WIDTH +: DATA_WIDTH]);
    walk(right_child[node*PW +: PW], depth + 1);
  endtask
  always @(posedge clk) begin
    automatic bit go = !reset && start && !m_busy;
    if (go) begin
      m_inorder = {};
      walk(root, 0);
      m_found = 0;
      foreach (m_inorder[i]) if (!m_found && m_inorder[i] == search_key) begin m_found = 1; m_pos = i; end
    end
    #0.5;
    if (!reset) begin
      if (complete_found || search_invalid) begin
        if (!m_busy || complete_found === search_invalid)
          $fatal(1, "%0t: complete_found %b search_invalid %b outside one search", $time, complete_found, search_invalid);
        if (complete_found !== m_found || key_position !== (m_found ? PW'(m_pos) : NIL))
          $fatal(1, "%0t: key %0d: found %b position %0d, expected found %b position %0d", $time, search_key,
                 complete_found, key_position, m_found, m_found ? m_pos : NIL);
        m_busy = 0;
      end else if (m_busy) begin
        m_cycles++;
        if (m_cycles >= 200) $fatal(1, "%0t: the search did not end within 200 cycles", $time);
      end
      if (go) begin m_busy = 1; m_cycles = 0; end
    end
  end
  always @(posedge reset) begin
    m_busy = 0;
    #0.5;
    if (complete_found !== 1'b0 || search_invalid !== 1'b0 || key_position !== NIL)
      $fatal(1, "%0t: reset did not clear the outputs", $time);
  end

  int vals[$];

  // Build the BST (left: <=, right: >) from vals in insertion order; node i holds vals[i].
  task automatic build();
    keys = '0; left_child = {ARRAY_SIZE{NIL}}; right_child = {ARRAY_SIZE{NIL}};
    root = vals.size() ? 0 : NIL;
    foreach (vals[i]) begin
      int cur;
      keys[i*DATA_WIDTH +: DATA_WIDTH] = vals[i];
      if (i == 0) continue;
      cur = 0;
      forever begin
        if (vals[i] <= vals[cur]) begin
          if (left_child[cur*PW +: PW] == NIL) begin left_child[cur*PW +: PW] = i; break; end
          cur = left_child[cur*PW +: PW];
        end else begin
          if (right_child[cur*PW +: PW] == NIL) begin right_child[cur*PW +: PW] = i; break; end
          cur = right_child[cur*PW +: PW];
        end
      end
    end
  endtask

  task automatic search(input [DATA_WIDTH-1:0] k);
    @(negedge clk); search_key = k; start = 1;
    @(negedge clk); start = 0;
    fork : w
      wait (complete_found || search_invalid);
      repeat (200) @(posedge clk);
    join_any
    disable w;
    @(negedge clk); @(negedge clk);
    $display("key=%0d pos=%0d found=%b invalid=%b", k, key_position, complete_found, search_invalid);
  endtask

  // search every stored key plus a few absent ones
  task automatic search_all();
    build();
    foreach (vals[i]) search(vals[i]);
    search(16'hFFFF); search(0); search(vals.size() ? vals[0] + 1 : 7);
  endtask

  initial begin
    reset = 1; start = 0; search_key = 0; vals = {}; build();
    repeat (3) @(posedge clk); #1 reset = 0;
    // empty tree
    search(5);
    // single node
    vals = '{100}; search_all();
    // ascending (right chain), descending (left chain)
    vals = '{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}; search_all();
    vals = '{15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}; search_all();
    // balanced
    vals = '{800, 400, 1200, 200, 600, 1000, 1400, 100, 300, 500, 700, 900, 1100, 1300, 1500}; search_all();
    // duplicates
    vals = '{50, 50, 50, 20, 20, 80, 80, 50, 10, 90, 50, 20, 80, 5, 95}; search_all();
    vals = '{65535, 0, 32768, 16384, 49152, 1, 65534, 255, 256, 4095, 4096, 21845, 43690, 2, 3}; search_all();
    // root with left subtree only / right subtree only
    vals = '{1000, 900, 950, 800, 850, 700, 990}; search_all();
    vals = '{10, 900, 50, 800, 20, 30, 1000, 11}; search_all();
    // random trees of random sizes
    for (int t = 0; t < 25; t++) begin
      int n = 1 + $urandom() % ARRAY_SIZE;
      vals = {};
      repeat (n) vals.push_back((t % 3 == 0) ? $urandom() % 32 : $urandom() % 65536);
      search_all();
    end
    // full-size random trees with full-range keys
    for (int t = 0; t < 20; t++) begin
      vals = {};
      repeat (ARRAY_SIZE) vals.push_back($urandom() % 65536);
      search_all();
    end
    // reset in the middle of a search
    vals = '{15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}; build();
    @(negedge clk); search_key = 1; start = 1; @(negedge clk); start = 0;
    repeat (5) @(negedge clk); reset = 1; #2 reset = 0;
    search(3);
    $finish;
  end
endmodule
