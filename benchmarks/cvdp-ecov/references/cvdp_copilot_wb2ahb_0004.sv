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
