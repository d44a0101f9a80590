// Interface contract of wishbone_to_ahb_bridge (cvdp wb2ahb_0004, issue 22): the testbench is the
// "WB Master" of the prompt's port list, so its cyc_i/stb_i follow the Wishbone B4 classic-cycle master
// rules: stb_i is high only inside a cycle (cyc_i high), and a request sampled at a rising edge of clk_i
// without ack_o stays as it is (stb_i high, we_i, sel_i, addr_i, and data_i on a write, unchanged) at the
// next rising edge, unless the master has negated cyc_i there (a Wishbone master may abort a cycle) or the
// bridge's reset hreset_n was asserted in between.
// ack_o is combinational in this bridge (data phase & hready): the value before the edge is the one the
// master samples with the request, which is what a clocked always block reads here. Reset is hreset_n, the
// bridge's only working reset (rst_i is not connected inside the RTL), asynchronous as the prompt asks.
module ecov_contract (
    input logic clk_i, input logic hreset_n, input logic cyc_i, input logic stb_i, input logic we_i,
    input logic [3:0] sel_i, input logic [31:0] addr_i, input logic [31:0] data_i, input logic ack_o,
    input logic hready, input logic [1:0] hresp, input logic [1:0] htrans, input logic [31:0] haddr);
  logic pend, we_q, dphase, acc_we, stalled, err_seen;
  logic [3:0] sel_q, acc_sel;
  logic [31:0] addr_q, data_q;
  wire req = cyc_i && stb_i;
  // the bridge takes a request into its AHB address phase (NONSEQ with hready), and completes the transfer
  // at the edge where ack_o is high; the bins below classify completed transfers by the request taken
  wire accept = req && hready && htrans == 2'b10;
  wire byte_sel = acc_sel == 4'b0001 || acc_sel == 4'b0010 || acc_sel == 4'b0100 || acc_sel == 4'b1000;
  wire half_sel = acc_sel == 4'b0011 || acc_sel == 4'b1100;
  wire word_sel = acc_sel == 4'b1111;
  always @(posedge clk_i or negedge hreset_n) begin
    if (!hreset_n) begin
      pend <= 1'b0; dphase <= 1'b0; stalled <= 1'b0; err_seen <= 1'b0;
    end else begin
      if (stb_i && !cyc_i) `ECOV_VIOLATION(stb_within_cyc)
      else if (pend && cyc_i && (!stb_i || we_i != we_q || sel_i != sel_q || addr_i != addr_q
                                 || (we_q && data_i != data_q))) `ECOV_VIOLATION(hold_until_ack)
      pend <= req && !ack_o;
      we_q <= we_i; sel_q <= sel_i; addr_q <= addr_i; data_q <= data_i;
      if (ack_o) dphase <= 1'b0;
      else if (accept) begin dphase <= 1'b1; acc_we <= we_i; acc_sel <= sel_i; end
      if (ack_o || (!req && !dphase)) stalled <= 1'b0;
      else if (!hready) stalled <= 1'b1;
      if ((req || dphase) && hresp == 2'b01) err_seen <= 1'b1;
    end
  end
  always @(posedge clk_i) if (hreset_n) begin
    `ECOV_COVER(byte_write, ack_o && dphase && acc_we && byte_sel)
    `ECOV_COVER(halfword_write, ack_o && dphase && acc_we && half_sel)
    `ECOV_COVER(word_write, ack_o && dphase && acc_we && word_sel)
    `ECOV_COVER(byte_read, ack_o && dphase && !acc_we && byte_sel)
    `ECOV_COVER(halfword_read, ack_o && dphase && !acc_we && half_sel)
    `ECOV_COVER(word_read, ack_o && dphase && !acc_we && word_sel)
    `ECOV_COVER(address_realigned, req && htrans == 2'b10 && haddr[31:2] == addr_i[31:2] && haddr[1:0] != addr_i[1:0])
    `ECOV_COVER(htrans_idle, !cyc_i && htrans == 2'b00)
    `ECOV_COVER(htrans_nonseq, req && htrans == 2'b10)
    `ECOV_COVER(wait_then_ack, ack_o && stalled)
    `ECOV_COVER(error_response, (req || dphase) && hresp == 2'b01)
    `ECOV_COVER(recover_after_error, ack_o && hresp == 2'b00 && err_seen)
  end
endmodule
