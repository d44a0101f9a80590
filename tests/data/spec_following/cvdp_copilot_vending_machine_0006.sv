// A testbench written from cvdp_copilot_vending_machine_0006's prompt, in its own words (issue 32): the
// prompt's partial code (initialize, select_item) unchanged; insert_coin as scenario 3 says ("A value
// representing the coin input is assigned, and after a clock cycle, it is reset to zero."); cancel as
// scenario 4 says ("asserted and de-asserted within one clock cycle"); then scenarios 5-19 in order.
// Scenarios 13 and 14 call insert_coin back to back ("in quick succession"), so a coin is non-zero at
// consecutive rising edges: the contract must take that as legal stimulus.
module vending_machine_tb;

    reg clk;                    // Clock signal
    reg rst;                    // Reset signal
    reg item_button;            // Signal for item selection button press
    reg [2:0] item_selected;    // Input to select one of 4 items
    reg [3:0] coin_input;       // Coin input
    reg cancel;                 // Cancel button signal

    wire dispense_item;         // Signal to dispense item
    wire return_change;         // Signal to return change
    wire error;                 // Error signal if any invalid operation occurs
    wire return_money;          // Signal to return all money if operation is cancelled
    wire [4:0] item_price;      // Price of the selected item
    wire [4:0] change_amount;   // Amount of change to return
    wire [2:0] dispense_item_id;// ID of item being dispensed

    // Instantiate the vending machine module
    vending_machine uut (
        .clk(clk),
        .rst(rst),
        .item_button(item_button),
        .item_selected(item_selected),
        .coin_input(coin_input),
        .dispense_item(dispense_item),
        .return_change(return_change),
        .item_price(item_price),
        .change_amount(change_amount),
        .dispense_item_id(dispense_item_id),
        .error(error),
        .cancel(cancel),
        .return_money(return_money)
    );

    // Clock generator: Clock signal toggles every 5 time units
    always #5 clk = ~clk;

    // Task to initialize the testbench (reset and initial conditions)
    task initialize;
    begin
        clk = 0;
        rst = 1;
        item_button = 0;
        item_selected = 3'b000;
        coin_input = 0;
        cancel = 0;
        @(posedge clk) rst = 0;
    end
    endtask

    // Task to select an item
    task select_item(input [2:0] item);
    begin
        @(posedge clk)
        item_button = 1;
        @(posedge clk) item_button = 0;
        item_selected = item;
        @(posedge clk);
    end
    endtask

    // Scenario 3: a value representing the coin input is assigned, and after a clock cycle, it is reset to zero.
    task insert_coin(input [3:0] coin);
    begin
        coin_input = coin;
        @(posedge clk);
        coin_input = 0;
    end
    endtask

    // Scenario 4: the cancel button is asserted and de-asserted within one clock cycle.
    task cancel_purchase;
    begin
        cancel = 1;
        @(posedge clk);
        cancel = 0;
    end
    endtask

    task settle;
    begin
        repeat (4) @(posedge clk);
    end
    endtask

    initial begin
        // 1. System initialization: reset for at least three clock cycles
        initialize;
        rst = 1;
        repeat (3) @(posedge clk);
        rst = 0;
        // 5. Purchasing an item with exact coins
        select_item(3'b001); insert_coin(4'd5); settle;
        // 6. Purchasing an item with multiple coin insertions
        select_item(3'b010); insert_coin(4'd5); insert_coin(4'd5); settle;
        // 7. Purchasing an item with extra coins and getting change
        select_item(3'b010); insert_coin(4'd10); insert_coin(4'd5); settle;
        // 8. Cancelling a purchase after inserting some coins
        select_item(3'b011); insert_coin(4'd5); cancel_purchase; settle;
        // 9. Cancelling immediately after selecting an item
        select_item(3'b001); cancel_purchase; settle;
        // 10. Purchasing an expensive item with multiple small coin insertions
        select_item(3'b100); insert_coin(4'd5); insert_coin(4'd5); insert_coin(4'd5); insert_coin(4'd5); settle;
        // 11. Inserting coins without selecting an item
        insert_coin(4'd2); settle;
        // 12. Resetting the system after inserting coins or selecting an item
        select_item(3'b011); insert_coin(4'd2); rst = 1; @(posedge clk); rst = 0; settle;
        // 13. Rapid successive coin insertions: multiple small denominations in quick succession
        select_item(3'b100); insert_coin(4'd1); insert_coin(4'd2); insert_coin(4'd5); insert_coin(4'd2);
        insert_coin(4'd10); settle;
        // 14. Rapid coin insertion handling: the same coin value multiple times in quick succession
        select_item(3'b011); insert_coin(4'd2); insert_coin(4'd2); insert_coin(4'd2); insert_coin(4'd2);
        insert_coin(4'd2); insert_coin(4'd2); insert_coin(4'd2); insert_coin(4'd2); settle;
        // 15. Selecting an invalid item ID
        select_item(3'b111); settle;
        select_item(3'b000); insert_coin(4'd5); settle;
        // 16. Returning money when no item is selected
        insert_coin(4'd10); settle;
        // 17. Transition from dispensing an item to returning change
        select_item(3'b001); insert_coin(4'd10); settle;
        // 18. Transition from returning change back to idle
        select_item(3'b010); insert_coin(4'd10); insert_coin(4'd10); settle;
        select_item(3'b001); insert_coin(4'd5); settle;
        // 19. Cancelling after pressing the item selection button
        select_item(3'b010); cancel_purchase; settle;
        // invalid coin values (error path)
        select_item(3'b001); insert_coin(4'd3); settle;
        // Final steps: wait for a few cycles and finish
        repeat (5) @(posedge clk);
        $finish;
    end

endmodule
