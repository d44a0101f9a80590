// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module wishbone_to_ahb_bridge_tb;
  reg clk = 0, rst_n, cyc_i, stb_i, we_i, hready;
  reg [3:0] sel_i;
  reg [31:0] addr_i, data_i, hrdata;
  reg [1:0] hresp;
  wire [31:0] data_o, haddr, hwdata;
  wire ack_o, hwrite;
  wire [1:0] htrans;
  wire [2:0] hsize, hburst;

  wishbone_to_ahb_bridge DUT (.clk_i(clk), .rst_i(rst_n), .cyc_i(cyc_i), .stb_i(stb_i), .sel_i(sel_i),
    .we_i(we_i), .addr_i(addr_i), .data_i(data_i), .data_o(data_o), .ack_o(ack_o), .hclk(clk),
    .hreset_n(rst_n), .hrdata(hrdata), .hresp(hresp), .hready(hready), .htrans(htrans), .hsize(hsize),
    .hburst(hburst), .hwrite(hwrite), .haddr(haddr), .hwdata(hwdata));

  always #5 clk = ~clk;

  // Checks from the spec: bursts are always SINGLE (hburst 000); an acknowledge needs the AHB slave ready;
  // a request the master holds steady for a cycle is issued as NONSEQ with hwrite = we_i, the word address
  // of addr_i, the byte offset and transfer size its byte enables imply (one byte: offset of the enabled
  // byte, size byte; 0011/1100: offset 0/2, half-word; 1111: offset 0, word). Inputs change on falling edges;
  // checked at rising ones.
  logic [71:0] m_prev_in = 'x;
  always @(posedge clk) if (rst_n) begin
    automatic logic [71:0] in_now = {cyc_i, stb_i, we_i, sel_i, addr_i, data_i, 1'b0};
    automatic logic [1:0] off;
    automatic logic [2:0] size;
    automatic bit known = 1;
    case (sel_i)
      4'b0001: begin off = 0; size = 0; end  4'b0010: begin off = 1; size = 0; end
      4'b0100: begin off = 2; size = 0; end  4'b1000: begin off = 3; size = 0; end
      4'b0011: begin off = 0; size = 1; end  4'b1100: begin off = 2; size = 1; end
      4'b1111: begin off = 0; size = 2; end
      default: known = 0;
    endcase
    if (hburst !== 3'b000) $fatal(1, "%0t: hburst %b is not SINGLE", $time, hburst);
    if (ack_o === 1'b1 && hready !== 1'b1) $fatal(1, "%0t: ack_o without hready", $time);
    if (known && cyc_i && stb_i && htrans === 2'b10 && in_now === m_prev_in &&
        {hwrite, haddr, hsize} !== {we_i, addr_i[31:2], off, size})
      $fatal(1, "%0t: sel %b addr %h we %b issued as haddr %h hsize %0d hwrite %b", $time, sel_i, addr_i, we_i,
             haddr, hsize, hwrite);
    m_prev_in = in_now;
  end

  // one Wishbone single transfer; the AHB slave inserts `waits` wait states
  task automatic xfer(input bit we, input [3:0] sel, input [31:0] addr, input [31:0] data, input int waits);
    int guard = 0;
    @(negedge clk); cyc_i = 1; stb_i = 1; we_i = we; sel_i = sel; addr_i = addr; data_i = data;
    hrdata = $urandom(); hready = (waits == 0); hresp = 2'b00;
    repeat (waits) @(negedge clk);
    hready = 1;
    while (!ack_o && guard < 8) begin @(negedge clk); guard++; end
    @(negedge clk); cyc_i = 0; stb_i = 0;
    $display("%s sel=%b addr=%h -> haddr=%h hsize=%0d data_o=%h", we ? "WR" : "RD", sel, addr, haddr, hsize, data_o);
  endtask

  bit held = 0;  // the request will be sampled without ack_o at the coming rising edge
  initial begin
    rst_n = 0; cyc_i = 0; stb_i = 0; we_i = 0; sel_i = 0; addr_i = 0; data_i = 0; hrdata = 0; hresp = 0; hready = 1;
    repeat (2) @(negedge clk); rst_n = 1;
    // every byte-enable pattern, read and write, with and without wait states
    for (int s = 0; s < 16; s++) begin
      xfer(1, s, 32'hFFFF_FFFF, 32'hFFFF_FFFF, 0); xfer(0, s, 32'h0000_0000, 32'h0, 0);
      xfer(1, s, $urandom(), $urandom(), 2); xfer(0, s, $urandom(), $urandom(), 1);
    end
    // cycle without strobe (BUSY-type), idle bus
    @(negedge clk); cyc_i = 1; stb_i = 0; repeat (2) @(negedge clk); cyc_i = 0;
    // long stalls
    xfer(1, 4'b1111, 32'h1234_5678, 32'hDEAD_BEEF, 5); xfer(0, 4'b0011, 32'h8765_4320, 0, 4);
    // random bus activity (a Wishbone master: stb_i only inside cyc_i; a request not yet acknowledged is
    // held as it is, or the cycle is aborted by negating cyc_i)
    repeat (600) begin
      @(negedge clk);
      if (held) begin
        if ($urandom() % 4 == 0) begin cyc_i = 0; stb_i = 0; end
      end else begin
        cyc_i = $urandom(); stb_i = cyc_i & $urandom(); we_i = $urandom(); sel_i = $urandom();
        addr_i = $urandom(); data_i = $urandom();
      end
      hrdata = $urandom(); hresp = $urandom(); hready = $urandom() % 3 != 0;
      #1 held = cyc_i && stb_i && !ack_o;
    end
    // asynchronous reset during a stalled transfer
    @(negedge clk); cyc_i = 1; stb_i = 1; hready = 0; repeat (2) @(negedge clk);
    #2 rst_n = 0; #4 rst_n = 1;
    xfer(0, 4'b1111, 32'h10, 0, 0);
    $finish;
  end
endmodule
