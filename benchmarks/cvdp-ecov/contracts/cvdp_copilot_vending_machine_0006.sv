// Interface contract of vending_machine (cvdp vending_machine_0006, issue 22). Scenarios 2 and 4 of the
// prompt define the machine's two button presses, which every later scenario uses (its own select_item task
// holds item_button high for one edge; the RTL marks both buttons "active high, rising edge"): the selection
// button and cancel are asserted and de-asserted within one clock cycle. Checked on the values sampled at
// the rising edges of clk while rst is low: item_button or cancel high at two rising edges in a row breaks
// it; a reset clears the history. Coins carry no rule (issue 32): scenario 3 drives a coin for one clock
// cycle, and scenarios 13/14 insert coins "in quick succession", so a coin at every rising edge is a stream
// of separate insertions (the DUT adds each), whether its value changes or not.
// The bins follow the prompt's scenarios on the FSM of the description, mirrored from the ports.
module ecov_contract (input logic clk, input logic rst, input logic item_button,
    input logic [2:0] item_selected, input logic [3:0] coin_input, input logic cancel,
    input logic dispense_item, input logic return_change, input logic [4:0] item_price,
    input logic [4:0] change_amount, input logic [2:0] dispense_item_id, input logic error,
    input logic return_money);
  // ---- rules
  logic btn_q, cancel_q;
  always @(posedge clk or posedge rst) begin
    if (rst) begin btn_q <= 1'b0; cancel_q <= 1'b0; end
    else begin
      if (item_button === 1'b1 && btn_q) `ECOV_VIOLATION(button_one_cycle)
      if (cancel === 1'b1 && cancel_q) `ECOV_VIOLATION(cancel_one_cycle)
      btn_q <= item_button === 1'b1;
      cancel_q <= cancel === 1'b1;
    end
  end

  // ---- bins: the FSM (IDLE, ITEM_SELECTION, PAYMENT_VALIDATION, DISPENSING_ITEM, RETURN_CHANGE,
  // RETURN_MONEY as 0..5) and the accumulated coins, mirrored from the inputs and the item_price/error ports
  localparam logic [2:0] IDLE = 3'd0, SEL = 3'd1, PV = 3'd2, DISP = 3'd3, RC = 3'd4, RM = 3'd5;
  logic [2:0] st;
  logic [4:0] coins;
  int unsigned ncoin;       // coins accepted in this transaction
  logic [3:0] maxc;         // largest coin accepted in this transaction
  logic [3:0] last_coin;    // value of the last coin accepted
  int unsigned since_coin;  // rising edges since the last accepted coin (saturating)
  int unsigned same_run;    // accepted coins in quick succession with the same value
  logic after_rc;           // the last transaction ended by returning change
  logic disp_q, disp_qq;
  logic valid_coin;
  logic accept;
  assign valid_coin = coin_input == 4'd1 || coin_input == 4'd2 || coin_input == 4'd5 || coin_input == 4'd10;
  assign accept = st == PV && !cancel && item_selected != 3'd0 && item_price != 5'd0 && !error
      && coins < item_price && coin_input != 4'd0 && valid_coin;
  always @(posedge clk or posedge rst) begin
    if (rst) begin
      `ECOV_COVER(reset_mid_transaction, !$isunknown(st) && st != IDLE)
      st <= IDLE; coins <= 5'd0; ncoin <= 0; maxc <= 4'd0; since_coin <= 1000; same_run <= 0;
      after_rc <= 1'b0; last_coin <= 4'd0;
    end else begin
      since_coin <= accept ? 1 : (since_coin < 1000 ? since_coin + 1 : since_coin);
      if (accept) begin
        ncoin <= ncoin + 1;
        if (coin_input > maxc) maxc <= coin_input;
        last_coin <= coin_input;
        same_run <= (since_coin <= 2 && coin_input == last_coin) ? same_run + 1 : 1;
      end
      case (st)
        IDLE: if (item_button) begin
                st <= SEL; coins <= 5'd0; ncoin <= 0; maxc <= 4'd0; same_run <= 0;
              end else if (coin_input > 4'd0) begin
                coins <= 5'(coin_input); st <= RM; after_rc <= 1'b0;
              end
        SEL: st <= cancel ? RM : PV;
        PV: if (cancel) st <= RM;
            else if (item_selected == 3'd0 || item_price == 5'd0) begin
              coins <= coins + 5'(coin_input); st <= RM;
            end else if (error) st <= IDLE;
            else if (coins >= item_price) st <= DISP;
            else if (coin_input > 4'd0) begin
              if (valid_coin) coins <= coins + 5'(coin_input);
              else st <= IDLE;
            end
        DISP: begin
          st <= coins > item_price ? RC : IDLE;
          after_rc <= coins > item_price;
          coins <= 5'd0;
        end
        RC: begin st <= IDLE; coins <= 5'd0; end
        RM: begin st <= IDLE; after_rc <= 1'b0; end
        default: st <= IDLE;
      endcase
      if (st == PV && (cancel || item_selected == 3'd0 || item_price == 5'd0
          || (!error && coins < item_price && coin_input > 4'd0 && !valid_coin))) after_rc <= 1'b0;
    end
  end
  always @(posedge clk) begin
    disp_q <= dispense_item;
    disp_qq <= disp_q;
  end
  always @(posedge clk) if (rst === 1'b0) begin
    `ECOV_COVER(exact_item1, st == DISP && item_selected == 3'd1 && item_price == 5'd5 && coins == 5'd5 && ncoin == 1)
    `ECOV_COVER(item2_with_change, st == DISP && item_selected == 3'd2 && item_price == 5'd10 && coins > 5'd10)
    `ECOV_COVER(cancel_with_coins, st == PV && cancel && coins != 5'd0)
    `ECOV_COVER(cancel_after_select, st == SEL && cancel)
    `ECOV_COVER(cancel_before_coins, st == PV && cancel && ncoin == 0)
    `ECOV_COVER(expensive_small_coins, st == DISP && item_price == 5'd20 && ncoin >= 4 && maxc <= 4'd5)
    `ECOV_COVER(coin_without_selection, st == IDLE && !item_button && coin_input != 4'd0)
    `ECOV_COVER(refund_no_item, st == PV && !cancel && item_selected == 3'd0 && 5'(coins + 5'(coin_input)) != 5'd0)
    `ECOV_COVER(invalid_item, st == SEL && !cancel && (item_selected == 3'd0 || item_selected > 3'd4))
    `ECOV_COVER(invalid_coin, st == PV && !cancel && item_selected != 3'd0 && item_price != 5'd0 && !error
        && coins < item_price && coin_input != 4'd0 && !valid_coin)
    `ECOV_COVER(coins_quick_succession, accept && since_coin <= 2 && coin_input != last_coin && coin_input <= 4'd5 && last_coin <= 4'd5)
    `ECOV_COVER(same_coin_repeated, accept && since_coin <= 2 && coin_input == last_coin && same_run >= 2)
    `ECOV_COVER(change_after_dispense, return_change && change_amount != 5'd0 && disp_qq)
    `ECOV_COVER(ready_after_change, st == IDLE && item_button && after_rc)
  end
endmodule
