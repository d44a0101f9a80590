// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam DATA_BYTES = 8;
  localparam DW = DATA_BYTES * 8, EW = $clog2(DATA_BYTES);
  reg clk = 0, reset_n;
  reg [DW-1:0] stream_in_data;
  reg [EW-1:0] stream_in_empty;
  reg stream_in_valid, stream_in_startofpacket, stream_in_endofpacket, stream_out_ready;
  wire stream_in_ready;
  wire [DW-1:0] stream_out_data;
  wire [EW-1:0] stream_out_empty;
  wire stream_out_valid, stream_out_startofpacket, stream_out_endofpacket;
  reg [1:0] csr_address;
  reg csr_read, csr_write;
  reg [31:0] csr_writedata;
  wire [31:0] csr_readdata;
  wire csr_readdatavalid, csr_waitrequest;

  endian_swapper #(.DATA_BYTES(DATA_BYTES)) dut (
    .clk(clk), .reset_n(reset_n),
    .stream_in_data(stream_in_data), .stream_in_empty(stream_in_empty), .stream_in_valid(stream_in_valid),
    .stream_in_startofpacket(stream_in_startofpacket), .stream_in_endofpacket(stream_in_endofpacket),
    .stream_in_ready(stream_in_ready),
    .stream_out_data(stream_out_data), .stream_out_empty(stream_out_empty), .stream_out_valid(stream_out_valid),
    .stream_out_startofpacket(stream_out_startofpacket), .stream_out_endofpacket(stream_out_endofpacket),
    .stream_out_ready(stream_out_ready),
    .csr_address(csr_address), .csr_readdata(csr_readdata), .csr_readdatavalid(csr_readdatavalid),
    .csr_read(csr_read), .csr_write(csr_write), .csr_waitrequest(csr_waitrequest),
    .csr_writedata(csr_writedata));

  always #5 clk = ~clk;

  // Scoreboard from the spec: every beat the output shows is one of the beats the input accepted
  // (valid && ready) lately, passed through (its empty kept) or byte-swapped (empty 0) as the swap setting
  // says, with its start/end-of-packet flags; the setting does not change inside a packet; a CSR read
  // answers (readdatavalid) with the packet count (output start-of-packet handshakes) at address 1 and 0
  // at addresses 2 and 3. reset_n (asynchronous) clears the output stream. Inputs change 1 ns after a
  // rising edge: read at the edge, compared 0.5 ns after it.
  typedef struct packed { logic [DW-1:0] d; logic [EW-1:0] e; logic s, f; } beat_t;
  beat_t m_seen [$];
  int m_packets = 0, m_mode = -1;  // -1: swap setting not yet seen in this packet
  function automatic logic [DW-1:0] bswap(input logic [DW-1:0] d);
    for (int i = 0; i < DATA_BYTES; i++) bswap[i*8 +: 8] = d[(DATA_BYTES-1-i)*8 +: 8];
  endfunction
  always @(posedge clk) if (reset_n) begin
    automatic bit in_fire = stream_in_valid && stream_in_ready;
    automatic beat_t b = '{stream_in_data, stream_in_empty, stream_in_startofpacket, stream_in_endofpacket};
    automatic bit out_fire = stream_out_valid && stream_out_ready;
    automatic bit sop = stream_out_startofpacket;
    automatic logic [1:0] addr = csr_address;
    automatic int count = m_packets;
    #0.5;
    if (reset_n) begin
    if (in_fire) begin m_seen.push_back(b); if (m_seen.size() > 4) void'(m_seen.pop_front()); end
    if (out_fire && sop) m_packets++;
    if (stream_out_valid) begin
      automatic int mode = -1;
      foreach (m_seen[i]) begin
        if (stream_out_startofpacket === m_seen[i].s && stream_out_endofpacket === m_seen[i].f) begin
          if (stream_out_data === m_seen[i].d && stream_out_empty === m_seen[i].e) mode = mode == 1 ? 2 : 0;
          if (stream_out_data === bswap(m_seen[i].d) && stream_out_empty === '0) mode = mode == 0 ? 2 : 1;
        end
      end
      if (mode < 0) $fatal(1, "%0t: output beat %h (empty %0d sop %b eop %b) is no recent input beat, as is or swapped",
                           $time, stream_out_data, stream_out_empty, stream_out_startofpacket, stream_out_endofpacket);
      if (stream_out_startofpacket) m_mode = -1;
      if (mode < 2) begin
        if (m_mode >= 0 && m_mode != mode) $fatal(1, "%0t: the swap setting changed inside a packet", $time);
        m_mode = mode;
      end
    end
    if (csr_readdatavalid && addr != 0) begin
      if (csr_readdata !== (addr == 1 ? 32'(count) : 32'h0))
        $fatal(1, "%0t: csr[%0d] = %h, expected %h", $time, addr, csr_readdata, addr == 1 ? count : 0);
    end
    end
  end
  always @(negedge reset_n) begin
    m_seen = {}; m_packets = 0; m_mode = -1;
    #0.5;
    if (stream_out_valid !== 1'b0 || stream_out_data !== '0) $fatal(1, "%0t: reset did not clear the output", $time);
  end

  task automatic tick(int n = 1); repeat (n) @(posedge clk); #1; endtask

  task automatic csr(input bit wr, input [1:0] a, input [31:0] d = 0);
    int guard = 0;
    while (csr_waitrequest && guard < 1000) begin tick(); guard++; end
    csr_address = a; csr_writedata = d; csr_read = !wr; csr_write = wr;
    tick(); csr_read = 0; csr_write = 0; tick();
    if (!wr) $display("csr[%0d] = %h", a, csr_readdata);
  endtask

  // send one beat: valid (and the beat) stay up until ready (AXI-Stream); after TIMEOUT (1000) stalled
  // cycles the sink side raises stream_out_ready so the beat drains
  task automatic beat(input [DW-1:0] d, input [EW-1:0] e, input bit sop, input bit eop);
    int guard = 0;
    stream_in_valid = 1; stream_in_data = d; stream_in_empty = e;
    stream_in_startofpacket = sop; stream_in_endofpacket = eop;
    do begin @(posedge clk); guard++; if (!stream_in_ready && guard % 1000 == 0) stream_out_ready <= 1; end
    while (!stream_in_ready);
    #1 stream_in_valid = 0;
  endtask

  task automatic packet(input int beats, input bit random_ready);
    for (int b = 0; b < beats; b++) begin
      if (random_ready) stream_out_ready = $urandom() % 3 != 0;
      beat({$urandom(), $urandom()}, (b == beats - 1) ? $urandom() : 0, b == 0, b == beats - 1);
    end
  endtask

  initial begin
    reset_n = 0; stream_in_data = 0; stream_in_empty = 0; stream_in_valid = 0;
    stream_in_startofpacket = 0; stream_in_endofpacket = 0; stream_out_ready = 1;
    csr_address = 0; csr_read = 0; csr_write = 0; csr_writedata = 0;
    tick(3); reset_n = 1; tick(3);
    // CSR: read both registers, invalid address, write swap on/off
    csr(0, 0); csr(0, 1); csr(0, 2); csr(0, 3);
    csr(1, 1, 32'hFFFF_FFFF); csr(1, 3, 1);
    // pass-through packets with extreme data
    stream_out_ready = 1;
    beat(64'hFFFF_FFFF_FFFF_FFFF, 3'h7, 1, 0); beat(64'h0, 3'h0, 0, 1);
    beat(64'h0123_4567_89AB_CDEF, 3'h5, 1, 1);
    tick(4);
    // enable byte swapping
    csr(1, 0, 1); csr(0, 0);
    beat(64'hFFFF_FFFF_FFFF_FFFF, 3'h7, 1, 0); beat(64'h0, 3'h2, 0, 1);
    beat(64'h0123_4567_89AB_CDEF, 3'h5, 1, 1);
    tick(4);
    // back-pressure: fill both buffers, then drain
    stream_out_ready = 0;
    beat(64'hAAAA_AAAA_AAAA_AAAA, 3'h1, 1, 0); beat(64'h5555_5555_5555_5555, 3'h6, 0, 0);
    stream_in_valid = 1; stream_in_data = 64'h1111; tick(3);   // stalled: held until ready
    // CSR access while a packet is open (waitrequest)
    csr_read = 1; csr_address = 1; tick(2); csr_read = 0;
    stream_out_ready = 1; beat(64'h1111, 3'h6, 0, 0); tick(3);   // the stalled beat, unchanged, drains
    beat(64'h2222, 0, 0, 1); tick(4);
    csr(1, 0, 0);
    // many packets, random back-pressure, swap toggled
    for (int p = 0; p < 300; p++) begin
      if (p % 50 == 0) csr(1, 0, p / 50);
      packet(1 + $urandom() % 4, 1);
      stream_out_ready = 1; tick($urandom() % 3);
      if (p % 37 == 0) csr(0, 1);
    end
    stream_out_ready = 1; tick(6);
    csr(0, 1); csr(0, 0);
    // asynchronous reset mid-packet
    stream_out_ready = 0;
    beat(64'hDEAD_BEEF_0000_0001, 0, 1, 0);
    #2 reset_n = 0; #6 reset_n = 1;
    stream_out_ready = 1; tick(5);
    $finish;
  end
endmodule
