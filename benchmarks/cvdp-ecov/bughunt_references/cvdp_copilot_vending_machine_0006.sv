// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  reg clk = 0, rst, item_button, cancel;
  reg [2:0] item_selected;
  reg [3:0] coin_input;
  wire dispense_item, return_change, error, return_money;
  wire [4:0] item_price, change_amount;
  wire [2:0] dispense_item_id;

  vending_machine uut (.clk(clk), .rst(rst), .item_button(item_button), .item_selected(item_selected),
    .coin_input(coin_input), .cancel(cancel), .dispense_item(dispense_item), .return_change(return_change),
    .item_price(item_price), .change_amount(change_amount), .dispense_item_id(dispense_item_id),
    .error(error), .return_money(return_money));

  always #5 clk = ~clk;

  // Checks from the spec at the transaction level: dispense_item and return_change are one-cycle
  // pulses; a dispensed item 1 costs 5 units and item 2 costs 10 (the spec's purchases); change is returned
  // only in a positive amount; the asynchronous reset clears the outputs. Inputs change on falling edges; checked after each
  // rising edge.
  logic [3:0] m_prev = 0;
  always @(posedge clk) begin
    #0.5;
    if (!rst) begin
      if ({dispense_item, return_change} & m_prev[3:2])
        $fatal(1, "%0t: dispense_item or return_change held for two cycles", $time);
      if (dispense_item && ((dispense_item_id == 1 && item_price !== 5'd5) || (dispense_item_id == 2 && item_price !== 5'd10)))
        $fatal(1, "%0t: dispensed item %0d at price %0d", $time, dispense_item_id, item_price);
      if (return_change && change_amount == 0) $fatal(1, "%0t: change returned with amount 0", $time);
      m_prev = {dispense_item, return_change, error, return_money};
    end else m_prev = 0;
  end
  always @(posedge rst) #0.5 if ({dispense_item, return_change, error, return_money, change_amount} !== '0)
    $fatal(1, "%0t: reset did not clear the outputs", $time);

  // button, coin and cancel are one-cycle pulses: a pulse that would repeat gets a zero cycle first
  task automatic cyc(input bit btn = 0, input [2:0] item = 0, input [3:0] coin = 0, input bit cnl = 0);
    @(negedge clk);
    if ((btn && item_button) || (coin != 0 && coin_input != 0) || (cnl && cancel)) begin
      item_button = 0; coin_input = 0; cancel = 0; @(negedge clk);
    end
    item_button = btn; item_selected = item; coin_input = coin; cancel = cnl;
  endtask

  // select an item, insert coins, let it dispense / return change
  task automatic buy(input [2:0] item, input int n, input logic [3:0] coins[8]);
    cyc(1, item); cyc(0, item);
    for (int i = 0; i < n; i++) cyc(0, item, coins[i]);
    repeat (4) cyc(0, item);
    $display("item=%0d price=%0d dispensed=%0d change=%0d", item, item_price, dispense_item_id, change_amount);
  endtask

  initial begin
    rst = 1; item_button = 0; item_selected = 0; coin_input = 0; cancel = 0;
    repeat (2) @(negedge clk); rst = 0;
    cyc(); cyc(0, 0, 4'd5); repeat (3) cyc();                           // coin without selection
    buy(3'b001, 1, '{4'd5, 0, 0, 0, 0, 0, 0, 0});                        // exact
    buy(3'b010, 2, '{4'd10, 4'd2, 0, 0, 0, 0, 0, 0});                    // change
    buy(3'b011, 3, '{4'd10, 4'd2, 4'd5, 0, 0, 0, 0, 0});
    buy(3'b100, 4, '{4'd10, 4'd5, 4'd1, 4'd10, 0, 0, 0, 0});
    buy(3'b100, 6, '{4'd1, 4'd1, 4'd2, 4'd2, 4'd5, 4'd10, 0, 0});
    buy(3'b001, 2, '{4'd3, 0, 0, 0, 0, 0, 0, 0});                        // invalid coin
    buy(3'b010, 2, '{4'd5, 4'd15, 0, 0, 0, 0, 0, 0});
    buy(3'b101, 1, '{4'd5, 0, 0, 0, 0, 0, 0, 0});                        // invalid item
    buy(3'b000, 1, '{4'd5, 0, 0, 0, 0, 0, 0, 0});                        // no item
    // cancel during selection and during payment (with money inserted)
    cyc(1, 3'b010); cyc(0, 3'b010, 0, 1); repeat (3) cyc();
    cyc(1, 3'b011); cyc(0, 3'b011); cyc(0, 3'b011, 4'd10); cyc(0, 3'b011, 0, 1); repeat (3) cyc();
    // item changed to zero during payment
    cyc(1, 3'b100); cyc(0, 3'b100); cyc(0, 3'b100, 4'd5); cyc(0, 3'b000, 4'd2); repeat (3) cyc();
    // random sessions
    for (int s = 0; s < 300; s++) begin
      cyc(1, $urandom() % 5);
      repeat (1 + $urandom() % 6)
        cyc(0, ($urandom() % 8 == 0) ? $urandom() : item_selected,
            ($urandom() % 6 == 0) ? $urandom() : coin_vals[$urandom() % 4], $urandom() % 25 == 0);
      repeat (3) cyc(0, item_selected);
    end
    // fully random inputs
    repeat (500) cyc($urandom(), $urandom(), $urandom(), $urandom() % 8 == 0);
    // asynchronous reset mid-transaction
    cyc(1, 3'b100); cyc(0, 3'b100, 4'd10); #2 rst = 1; #4 rst = 0;
    repeat (3) cyc();
    $finish;
  end
  logic [3:0] coin_vals[4] = '{4'd1, 4'd2, 4'd5, 4'd10};
endmodule
