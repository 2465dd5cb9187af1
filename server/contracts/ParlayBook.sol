// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title Parlay tickets and the liquidity pool that backs them
/// @notice One contract is both the ticket book and the pool: LPs hold ERC-4626 shares over the
/// collateral; a bettor places a quote signed by the service's quote signer (EIP-712, domain
/// "Duelkit Parlay" / "1"), once per (bettor, nonce), before its expiry, from the bettor's own
/// account (msg.sender must be the quote's bettor). The stake less the fee joins the pool's cash;
/// the fee is held until the ticket settles (refunded with the stake when every leg is void).
///
/// Pricing repeats docs/parlays.md step for step, every product floored:
///   product = ⌊…⌊1e18·o₁/1e18⌋·o₂/1e18⌋…⌋, odds = max(1e18, ⌊product·(10000−margin)/10000⌋),
///   fee = ⌊stake·feeBps/10000⌋, payout = ⌊(stake−fee)·odds/1e18⌋.
/// A quote's payout must equal that price of its legs' odds; a voided leg is dropped from the
/// product at settlement and the payout re-priced the same way; every leg void refunds the stake.
///
/// Pool accounting: `cash` is what belongs to LPs (deposits − withdrawals + net stakes − what
/// settled tickets are owed), NAV = totalAssets() = max(0, cash − Σ expected liability of open
/// tickets), expected liability = ⌊payout·1e18/product⌋. Withdrawals never take cash the open
/// tickets' payouts need (cash − reserved).
contract ParlayBook is ERC4626, EIP712 {
    using SafeERC20 for IERC20;

    uint256 public constant ONE = 1e18;
    uint256 public constant BPS = 10_000;
    uint256 public constant MAX_LEGS = 16;

    bytes32 public constant LEG_TYPEHASH = keccak256("Leg(bytes32 conditionId,uint64 outcomeId,uint256 odds)");
    bytes32 public constant QUOTE_TYPEHASH = keccak256(
        "ParlayQuote(address bettor,Leg[] legs,uint256 stake,uint256 payout,uint256 nonce,uint64 expiresAt)Leg(bytes32 conditionId,uint64 outcomeId,uint256 odds)"
    );

    uint8 public constant OPEN = 1;
    uint8 public constant WON = 2;
    uint8 public constant LOST = 3;
    uint8 public constant REFUNDED = 4;

    uint8 public constant RESULT_NONE = 0;
    uint8 public constant RESULT_DECIDED = 1;
    uint8 public constant RESULT_VOID = 2;

    struct Leg {
        bytes32 conditionId;
        uint64 outcomeId;
        uint256 odds;
    }

    struct Quote {
        address bettor;
        Leg[] legs;
        uint256 stake;
        uint256 payout;
        uint256 nonce;
        uint64 expiresAt;
    }

    struct Ticket {
        address bettor;
        uint8 status;
        bool claimed;
        uint256 stake;
        uint256 fee;
        uint256 payout;
        uint256 liability;
        /// What the ticket is owed once settled: the (re-priced) payout, the stake, or nothing.
        uint256 owed;
    }

    struct Result {
        uint8 state;
        uint64 outcome;
    }

    address public immutable operator;
    address public quoteSigner;
    uint16 public feeBps;
    uint16 public marginBps;

    uint256 public cash;
    /// Σ quoted payout of open tickets: what the pool may have to pay.
    uint256 public reserved;
    /// Σ expected liability of open tickets.
    uint256 public openLiability;
    /// Settled and not yet claimed (payouts and refunds); not the pool's.
    uint256 public owed;
    /// Fees of open tickets (refundable) and fees earned (settled tickets).
    uint256 public feesPending;
    uint256 public feesAccrued;

    mapping(bytes32 => Ticket) internal _tickets;
    mapping(bytes32 => Leg[]) internal _legs;
    mapping(bytes32 => Result) public results;
    mapping(address => mapping(uint256 => bool)) public nonceUsed;

    event TicketPlaced(
        bytes32 indexed ticketId,
        address indexed bettor,
        uint256 nonce,
        uint256 stake,
        uint256 fee,
        uint256 payout,
        uint256 liability
    );
    event ResultPosted(bytes32 indexed conditionId, bool isVoid, uint64 winningOutcome);
    /// poolResult: what the ticket did to LP cash over its life (net stake − payout; 0 when refunded).
    event TicketSettled(bytes32 indexed ticketId, uint8 status, uint256 owed, int256 poolResult);
    event TicketClaimed(bytes32 indexed ticketId, address indexed bettor, uint256 amount);
    event FeesWithdrawn(address indexed to, uint256 amount);
    event QuoteSignerSet(address signer);
    event PricingSet(uint16 feeBps, uint16 marginBps);

    error NotOperator();
    error NotBettor();
    error QuoteExpired();
    error NonceUsed();
    error BadSignature();
    error BadLegs();
    error LegClosed(bytes32 conditionId);
    error PayoutMismatch(uint256 quoted, uint256 priced);
    error PoolCannotCover(uint256 cash, uint256 reservedAfter);
    error InsufficientFreeLiquidity(uint256 free, uint256 requested);
    error UnknownTicket();
    error NotSettleable();
    error ResultAlreadySet();
    error NothingToClaim();
    error AlreadyClaimed();
    error BadPricing();

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator();
        _;
    }

    constructor(IERC20 asset_, address operator_, address quoteSigner_, uint16 feeBps_, uint16 marginBps_)
        ERC20("Duelkit Parlay LP", "dkLP")
        ERC4626(asset_)
        EIP712("Duelkit Parlay", "1")
    {
        if (feeBps_ >= BPS || marginBps_ >= BPS) revert BadPricing();
        operator = operator_;
        quoteSigner = quoteSigner_;
        feeBps = feeBps_;
        marginBps = marginBps_;
    }

    // ---- tickets ----

    /// @notice The id a bettor's ticket takes: known before the placement is mined.
    function ticketIdOf(address bettor, uint256 nonce) public pure returns (bytes32) {
        return keccak256(abi.encode(bettor, nonce));
    }

    function place(Quote calldata q, bytes calldata signature) external returns (bytes32 ticketId) {
        if (msg.sender != q.bettor) revert NotBettor();
        if (block.timestamp >= q.expiresAt) revert QuoteExpired();
        if (nonceUsed[q.bettor][q.nonce]) revert NonceUsed();
        if (ECDSA.recover(_hashTypedDataV4(_hashQuote(q)), signature) != quoteSigner) revert BadSignature();
        uint256 n = q.legs.length;
        if (n == 0 || n > MAX_LEGS) revert BadLegs();
        uint256 product = ONE;
        for (uint256 i = 0; i < n; i++) {
            Leg calldata leg = q.legs[i];
            if (leg.odds < ONE) revert BadLegs();
            if (results[leg.conditionId].state != RESULT_NONE) revert LegClosed(leg.conditionId);
            product = (product * leg.odds) / ONE;
        }
        (uint256 fee, uint256 payout) = _price(q.stake, product);
        if (payout != q.payout) revert PayoutMismatch(q.payout, payout);
        uint256 net = q.stake - fee;
        if (cash + net < reserved + payout) revert PoolCannotCover(cash + net, reserved + payout);

        nonceUsed[q.bettor][q.nonce] = true;
        ticketId = ticketIdOf(q.bettor, q.nonce);
        uint256 liability = (payout * ONE) / product;
        _tickets[ticketId] = Ticket({
            bettor: q.bettor,
            status: OPEN,
            claimed: false,
            stake: q.stake,
            fee: fee,
            payout: payout,
            liability: liability,
            owed: 0
        });
        Leg[] storage stored = _legs[ticketId];
        for (uint256 i = 0; i < n; i++) stored.push(q.legs[i]);
        cash += net;
        reserved += payout;
        openLiability += liability;
        feesPending += fee;
        IERC20(asset()).safeTransferFrom(msg.sender, address(this), q.stake);
        emit TicketPlaced(ticketId, q.bettor, q.nonce, q.stake, fee, payout, liability);
    }

    /// @notice Operator: a condition's result, once; a void result drops the leg from every ticket.
    function postResult(bytes32 conditionId, bool isVoid, uint64 winningOutcome) external onlyOperator {
        if (results[conditionId].state != RESULT_NONE) revert ResultAlreadySet();
        results[conditionId] = Result({state: isVoid ? RESULT_VOID : RESULT_DECIDED, outcome: winningOutcome});
        emit ResultPosted(conditionId, isVoid, winningOutcome);
    }

    /// @notice Anyone: settles an open ticket whose result is known (a lost leg, or every leg resulted).
    function settle(bytes32 ticketId) public {
        Ticket storage t = _tickets[ticketId];
        if (t.status == 0) revert UnknownTicket();
        if (t.status != OPEN) revert NotSettleable();
        Leg[] storage legs = _legs[ticketId];
        uint256 product = ONE;
        bool lost = false;
        bool pending = false;
        uint256 live = 0;
        for (uint256 i = 0; i < legs.length; i++) {
            Result memory r = results[legs[i].conditionId];
            if (r.state == RESULT_NONE) pending = true;
            else if (r.state == RESULT_DECIDED) {
                if (r.outcome != legs[i].outcomeId) lost = true;
                else {
                    product = (product * legs[i].odds) / ONE;
                    live++;
                }
            }
        }
        if (!lost && pending) revert NotSettleable();
        uint256 net = t.stake - t.fee;
        reserved -= t.payout;
        openLiability -= t.liability;
        feesPending -= t.fee;
        int256 poolResult;
        if (lost) {
            t.status = LOST;
            feesAccrued += t.fee;
            poolResult = int256(net);
        } else if (live == 0) {
            t.status = REFUNDED;
            t.owed = t.stake;
            cash -= net;
            owed += t.stake;
        } else {
            (, uint256 payout) = _price(t.stake, product);
            t.status = WON;
            t.owed = payout;
            cash -= payout;
            owed += payout;
            feesAccrued += t.fee;
            poolResult = int256(net) - int256(payout);
        }
        emit TicketSettled(ticketId, t.status, t.owed, poolResult);
    }

    /// @notice Anyone: pays a won or refunded ticket to its bettor, once (settling it first if needed).
    function claim(bytes32 ticketId) external returns (uint256 amount) {
        Ticket storage t = _tickets[ticketId];
        if (t.status == 0) revert UnknownTicket();
        if (t.status == OPEN) settle(ticketId);
        if (t.claimed) revert AlreadyClaimed();
        amount = t.owed;
        if (amount == 0) revert NothingToClaim();
        t.claimed = true;
        owed -= amount;
        IERC20(asset()).safeTransfer(t.bettor, amount);
        emit TicketClaimed(ticketId, t.bettor, amount);
    }

    function ticket(bytes32 ticketId) external view returns (Ticket memory) {
        return _tickets[ticketId];
    }

    function legsOf(bytes32 ticketId) external view returns (Leg[] memory) {
        return _legs[ticketId];
    }

    /// @notice The fee and payout of a stake at a product of leg odds, as quotes are priced.
    function price(uint256 stake, uint256 product) external view returns (uint256 fee, uint256 payout) {
        return _price(stake, product);
    }

    // ---- operator ----

    function withdrawFees(address to) external onlyOperator returns (uint256 amount) {
        amount = feesAccrued;
        feesAccrued = 0;
        IERC20(asset()).safeTransfer(to, amount);
        emit FeesWithdrawn(to, amount);
    }

    function setQuoteSigner(address signer) external onlyOperator {
        quoteSigner = signer;
        emit QuoteSignerSet(signer);
    }

    function setPricing(uint16 feeBps_, uint16 marginBps_) external onlyOperator {
        if (feeBps_ >= BPS || marginBps_ >= BPS) revert BadPricing();
        feeBps = feeBps_;
        marginBps = marginBps_;
        emit PricingSet(feeBps_, marginBps_);
    }

    // ---- pool ----

    /// @notice NAV: LP cash less the expected liability of open tickets, never below zero.
    function totalAssets() public view override returns (uint256) {
        return cash > openLiability ? cash - openLiability : 0;
    }

    /// @notice What withdrawals may take now: cash the open tickets' payouts do not need.
    function freeLiquidity() public view returns (uint256) {
        return cash > reserved ? cash - reserved : 0;
    }

    function _deposit(address caller, address receiver, uint256 assets, uint256 shares) internal override {
        super._deposit(caller, receiver, assets, shares);
        cash += assets;
    }

    function _withdraw(address caller, address receiver, address owner, uint256 assets, uint256 shares)
        internal
        override
    {
        uint256 free = freeLiquidity();
        if (assets > free) revert InsufficientFreeLiquidity(free, assets);
        cash -= assets;
        super._withdraw(caller, receiver, owner, assets, shares);
    }

    // ---- internals ----

    function _price(uint256 stake, uint256 product) internal view returns (uint256 fee, uint256 payout) {
        uint256 odds = (product * (BPS - marginBps)) / BPS;
        if (odds < ONE) odds = ONE;
        fee = (stake * feeBps) / BPS;
        payout = ((stake - fee) * odds) / ONE;
    }

    function _hashQuote(Quote calldata q) internal pure returns (bytes32) {
        bytes32[] memory legHashes = new bytes32[](q.legs.length);
        for (uint256 i = 0; i < q.legs.length; i++) {
            legHashes[i] = keccak256(abi.encode(LEG_TYPEHASH, q.legs[i].conditionId, q.legs[i].outcomeId, q.legs[i].odds));
        }
        return keccak256(
            abi.encode(
                QUOTE_TYPEHASH,
                q.bettor,
                keccak256(abi.encodePacked(legHashes)),
                q.stake,
                q.payout,
                q.nonce,
                q.expiresAt
            )
        );
    }
}
