// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @notice Prediction markets ("duels") with 2..8 options, each priced by a fixed-product market
/// maker. The arithmetic mirrors server/src/chain/fpmm.math.ts exactly (see docs/amm.md). The life
/// of a market (docs/duel-lifecycle.md): Open -> Resolved (contest period) -> Settled, or Cancelled
/// with refunds. Private markets trade for members only; members join with invite codes.
contract DuelMarkets {
    using SafeERC20 for IERC20;

    uint256 private constant ONE = 1e18;
    uint256 private constant BPS = 10_000;
    uint256 public constant MIN_BET = 5e18;

    enum Status {
        None,
        Open,
        Resolved,
        Settled,
        Cancelled
    }

    struct Market {
        address creator;
        IERC20 collateral;
        uint64 startTime;
        uint64 endTime;
        uint16 feeBps;
        bool isPrivate;
        Status status;
        uint8 outcome;
        uint64 resolvedAt;
        uint64 contestPeriod;
        uint256 funding;
        uint256 fees;
        /// @notice Collateral this market holds; no payment ever exceeds it.
        uint256 held;
        uint256[] balances;
    }

    struct Invite {
        uint32 maxUses;
        uint32 uses;
        uint64 expiresAt;
        bool revoked;
        bool exists;
    }

    /// @notice The platform account: deploys, joins members for the legacy server-signer flow, cancels.
    address public immutable platform;

    mapping(bytes32 => Market) private markets;
    /// @notice Shares held: duelId => holder => option => amount.
    mapping(bytes32 => mapping(address => mapping(uint256 => uint256))) public shares;
    /// @notice Collateral a holder paid in minus what sells returned (refund basis on cancellation).
    mapping(bytes32 => mapping(address => int256)) public netDeposit;
    /// @notice Whether a holder has received their payout or refund.
    mapping(bytes32 => mapping(address => bool)) public paid;
    /// @notice Whether a settled market's creator fees have been paid to its creator.
    mapping(bytes32 => bool) public feesClaimed;
    mapping(bytes32 => mapping(address => bool)) public members;
    /// @notice duelId => keccak256(invite code) => invitation.
    mapping(bytes32 => mapping(bytes32 => Invite)) public invites;

    error MarketExists();
    error UnknownMarket();
    error InvalidOptions(uint256 count);
    error EndBeforeStart();
    error StartTimeTooSoon(uint256 minStart);
    error BelowMinimum(uint256 minimum);
    error InvalidOption(uint256 option);
    error SlippageExceeded(uint256 amount, uint256 limit);
    error MarketNotOpen(uint8 status);
    error InsufficientShares(uint256 have, uint256 need);
    error PoolTooSmall();
    error FeeTooHigh(uint256 feeBps);
    error NotMember();
    error NotAuthorized();
    error MarketClosed(uint256 endTime);
    error MarketNotEnded(uint256 endTime);
    error ContestPeriodActive(uint256 endsAt);
    error InviteUnknown();
    error InviteExists();
    error InviteRevoked();
    error InviteExpired(uint256 expiresAt);
    error InviteExhausted(uint256 maxUses);
    error AlreadyMember();
    error AlreadyPaid();
    error FeesAlreadyClaimed();

    event MarketCreated(
        bytes32 indexed duelId,
        address indexed creator,
        address collateral,
        uint8 options,
        uint64 startTime,
        uint64 endTime,
        uint16 feeBps,
        bool isPrivate,
        uint256 funding
    );
    event Bought(
        bytes32 indexed duelId, address indexed buyer, uint8 option, uint256 investment, uint256 fee, uint256 sharesOut, uint256[] balances
    );
    event Sold(
        bytes32 indexed duelId, address indexed seller, uint8 option, uint256 returnAmount, uint256 fee, uint256 sharesIn, uint256[] balances
    );
    event Resolved(bytes32 indexed duelId, uint8 outcome, uint64 contestEndsAt);
    event Settled(bytes32 indexed duelId, uint8 outcome);
    event Cancelled(bytes32 indexed duelId);
    event Paid(bytes32 indexed duelId, address indexed holder, uint256 amount, bool refund);
    event FeesClaimed(bytes32 indexed duelId, address indexed creator, uint256 amount);
    event InviteCreated(bytes32 indexed duelId, bytes32 indexed codeHash, uint32 maxUses, uint64 expiresAt);
    event InviteRevokedEvent(bytes32 indexed duelId, bytes32 indexed codeHash);
    event MemberAdded(bytes32 indexed duelId, address indexed member, bytes32 codeHash);
    event MemberRemoved(bytes32 indexed duelId, address indexed member);

    constructor() {
        platform = msg.sender;
    }

    /// @notice Opens a market seeded with `funding` collateral split into equal pool balances.
    function createMarket(
        bytes32 duelId,
        IERC20 collateral,
        uint8 options,
        uint64 startTime,
        uint64 endTime,
        uint16 feeBps,
        bool isPrivate,
        uint256 funding,
        uint64 minLead,
        uint64 contestPeriod
    ) external {
        if (markets[duelId].status != Status.None) revert MarketExists();
        if (options < 2 || options > 8) revert InvalidOptions(options);
        if (endTime <= startTime) revert EndBeforeStart();
        if (startTime < block.timestamp + minLead) revert StartTimeTooSoon(block.timestamp + minLead);
        if (funding < MIN_BET) revert BelowMinimum(MIN_BET);
        if (feeBps > 1_000) revert FeeTooHigh(feeBps);
        Market storage m = markets[duelId];
        m.creator = msg.sender;
        m.collateral = collateral;
        m.startTime = startTime;
        m.endTime = endTime;
        m.feeBps = feeBps;
        m.isPrivate = isPrivate;
        m.status = Status.Open;
        m.contestPeriod = contestPeriod;
        m.funding = funding;
        m.held = funding;
        if (isPrivate) members[duelId][msg.sender] = true;
        for (uint256 i = 0; i < options; i++) {
            m.balances.push(funding);
        }
        collateral.safeTransferFrom(msg.sender, address(this), funding);
        emit MarketCreated(duelId, msg.sender, address(collateral), options, startTime, endTime, feeBps, isPrivate, funding);
    }

    /// @notice Buys option `option` with `investment` collateral; reverts below `minSharesOut`.
    function buy(bytes32 duelId, uint8 option, uint256 investment, uint256 minSharesOut) external returns (uint256 sharesOut) {
        Market storage m = _tradable(duelId, option);
        if (investment < MIN_BET) revert BelowMinimum(MIN_BET);
        uint256 fee = (investment * m.feeBps) / BPS;
        uint256 net = investment - fee;
        uint256[] storage b = m.balances;
        uint256 ending = b[option] * ONE;
        for (uint256 j = 0; j < b.length; j++) {
            if (j != option) ending = _ceilDiv(ending * b[j], b[j] + net);
        }
        sharesOut = b[option] + net - _ceilDiv(ending, ONE);
        if (sharesOut < minSharesOut) revert SlippageExceeded(sharesOut, minSharesOut);
        for (uint256 j = 0; j < b.length; j++) {
            b[j] = j == option ? b[j] + net - sharesOut : b[j] + net;
        }
        shares[duelId][msg.sender][option] += sharesOut;
        netDeposit[duelId][msg.sender] += int256(investment);
        m.fees += fee;
        m.held += investment;
        m.collateral.safeTransferFrom(msg.sender, address(this), investment);
        emit Bought(duelId, msg.sender, option, investment, fee, sharesOut, b);
    }

    /// @notice Sells shares of `option` for exactly `returnAmount` collateral; reverts above `maxSharesIn`.
    function sellForReturn(bytes32 duelId, uint8 option, uint256 returnAmount, uint256 maxSharesIn)
        external
        returns (uint256 sharesIn)
    {
        Market storage m = _tradable(duelId, option);
        uint256 returnPlusFees = _ceilDiv(returnAmount * BPS, BPS - m.feeBps);
        uint256[] storage b = m.balances;
        uint256 ending = b[option] * ONE;
        for (uint256 j = 0; j < b.length; j++) {
            if (j == option) continue;
            if (returnPlusFees >= b[j]) revert PoolTooSmall();
            ending = _ceilDiv(ending * b[j], b[j] - returnPlusFees);
        }
        sharesIn = returnPlusFees + _ceilDiv(ending, ONE) - b[option];
        if (sharesIn > maxSharesIn) revert SlippageExceeded(sharesIn, maxSharesIn);
        uint256 held = shares[duelId][msg.sender][option];
        if (held < sharesIn) revert InsufficientShares(held, sharesIn);
        for (uint256 j = 0; j < b.length; j++) {
            b[j] = j == option ? b[j] + sharesIn - returnPlusFees : b[j] - returnPlusFees;
        }
        shares[duelId][msg.sender][option] = held - sharesIn;
        netDeposit[duelId][msg.sender] -= int256(returnAmount);
        m.fees += returnPlusFees - returnAmount;
        m.held -= returnAmount;
        m.collateral.safeTransfer(msg.sender, returnAmount);
        emit Sold(duelId, msg.sender, option, returnAmount, returnPlusFees - returnAmount, sharesIn, b);
    }

    // ---- resolution ----

    /// @notice The creator names the outcome of an ended market; it settles after the contest period.
    function resolve(bytes32 duelId, uint8 outcome) external {
        Market storage m = _known(duelId);
        if (msg.sender != m.creator && msg.sender != platform) revert NotAuthorized();
        if (m.status != Status.Open) revert MarketNotOpen(uint8(m.status));
        if (block.timestamp < m.endTime) revert MarketNotEnded(m.endTime);
        if (outcome >= m.balances.length) revert InvalidOption(outcome);
        m.outcome = outcome;
        m.resolvedAt = uint64(block.timestamp);
        if (m.contestPeriod == 0) {
            m.status = Status.Settled;
            emit Resolved(duelId, outcome, uint64(block.timestamp));
            emit Settled(duelId, outcome);
        } else {
            m.status = Status.Resolved;
            emit Resolved(duelId, outcome, uint64(block.timestamp) + m.contestPeriod);
        }
    }

    /// @notice After the contest period, the creator or the platform settles with the final outcome.
    function finalize(bytes32 duelId, uint8 outcome) external {
        Market storage m = _known(duelId);
        if (msg.sender != m.creator && msg.sender != platform) revert NotAuthorized();
        if (m.status != Status.Resolved) revert MarketNotOpen(uint8(m.status));
        uint256 endsAt = uint256(m.resolvedAt) + m.contestPeriod;
        if (block.timestamp < endsAt) revert ContestPeriodActive(endsAt);
        if (outcome >= m.balances.length) revert InvalidOption(outcome);
        m.outcome = outcome;
        m.status = Status.Settled;
        emit Settled(duelId, outcome);
    }

    /// @notice The platform cancels a market that cannot settle; holders are refunded.
    function cancel(bytes32 duelId) external {
        Market storage m = _known(duelId);
        if (msg.sender != platform) revert NotAuthorized();
        if (m.status != Status.Open && m.status != Status.Resolved) revert MarketNotOpen(uint8(m.status));
        m.status = Status.Cancelled;
        emit Cancelled(duelId);
    }

    /// @notice What `holder` is owed now: winning shares (plus the creator's pool share) once
    /// settled, or the net deposit (plus the creator's funding) once cancelled.
    function owed(bytes32 duelId, address holder) public view returns (uint256 amount, bool refund) {
        Market storage m = markets[duelId];
        if (paid[duelId][holder]) return (0, false);
        if (m.status == Status.Settled) {
            amount = shares[duelId][holder][m.outcome];
            if (holder == m.creator) amount += m.balances[m.outcome];
        } else if (m.status == Status.Cancelled) {
            int256 net = netDeposit[duelId][holder];
            amount = net > 0 ? uint256(net) : 0;
            if (holder == m.creator) amount += m.funding;
            refund = true;
        } else {
            return (0, false);
        }
        if (amount > m.held) amount = m.held;
    }

    /// @notice Pays `holder` what they are owed, once. Anyone may trigger it; the money goes to the holder.
    function payout(bytes32 duelId, address holder) external returns (uint256 amount) {
        Market storage m = _known(duelId);
        if (m.status != Status.Settled && m.status != Status.Cancelled) revert MarketNotOpen(uint8(m.status));
        if (paid[duelId][holder]) revert AlreadyPaid();
        bool refund;
        (amount, refund) = owed(duelId, holder);
        paid[duelId][holder] = true;
        m.held -= amount;
        if (amount > 0) m.collateral.safeTransfer(holder, amount);
        emit Paid(duelId, holder, amount, refund);
    }

    /// @notice Trading fees a settled market owes its creator: what it holds beyond its winners'
    /// shares and the creator's pool share. A cancelled market refunds them to traders instead.
    function feesOwed(bytes32 duelId) public view returns (uint256 amount, bool claimed) {
        Market storage m = markets[duelId];
        claimed = feesClaimed[duelId];
        if (claimed || m.status != Status.Settled) return (0, claimed);
        amount = m.fees > m.held ? m.held : m.fees;
    }

    /// @notice Pays a settled market's fees to its creator, once. Anyone may trigger it; the money goes to the creator.
    function claimFees(bytes32 duelId) external returns (uint256 amount) {
        Market storage m = _known(duelId);
        if (m.status != Status.Settled) revert MarketNotOpen(uint8(m.status));
        if (feesClaimed[duelId]) revert FeesAlreadyClaimed();
        (amount,) = feesOwed(duelId);
        feesClaimed[duelId] = true;
        m.held -= amount;
        if (amount > 0) m.collateral.safeTransfer(m.creator, amount);
        emit FeesClaimed(duelId, m.creator, amount);
    }

    // ---- membership of private markets ----

    function createInvite(bytes32 duelId, bytes32 codeHash, uint32 maxUses, uint64 expiresAt) external {
        Market storage m = _known(duelId);
        if (msg.sender != m.creator && msg.sender != platform) revert NotAuthorized();
        Invite storage inv = invites[duelId][codeHash];
        if (inv.exists) revert InviteExists();
        inv.exists = true;
        inv.maxUses = maxUses;
        inv.expiresAt = expiresAt;
        emit InviteCreated(duelId, codeHash, maxUses, expiresAt);
    }

    function revokeInvite(bytes32 duelId, bytes32 codeHash) external {
        Market storage m = _known(duelId);
        if (msg.sender != m.creator && msg.sender != platform) revert NotAuthorized();
        Invite storage inv = invites[duelId][codeHash];
        if (!inv.exists) revert InviteUnknown();
        inv.revoked = true;
        emit InviteRevokedEvent(duelId, codeHash);
    }

    /// @notice Joins a private market with an invite code (its keccak256 hash).
    function join(bytes32 duelId, bytes32 codeHash) external {
        _join(duelId, codeHash, msg.sender);
    }

    /// @notice The platform joins `member` with a code (the legacy server-signer flow).
    function joinFor(bytes32 duelId, bytes32 codeHash, address member) external {
        if (msg.sender != platform) revert NotAuthorized();
        _join(duelId, codeHash, member);
    }

    function addMember(bytes32 duelId, address member) external {
        Market storage m = _known(duelId);
        if (msg.sender != m.creator && msg.sender != platform) revert NotAuthorized();
        if (members[duelId][member]) revert AlreadyMember();
        members[duelId][member] = true;
        emit MemberAdded(duelId, member, bytes32(0));
    }

    function removeMember(bytes32 duelId, address member) external {
        Market storage m = _known(duelId);
        if (msg.sender != m.creator && msg.sender != platform) revert NotAuthorized();
        if (member == m.creator) revert NotAuthorized();
        if (!members[duelId][member]) revert NotMember();
        members[duelId][member] = false;
        emit MemberRemoved(duelId, member);
    }

    function _join(bytes32 duelId, bytes32 codeHash, address member) private {
        _known(duelId);
        Invite storage inv = invites[duelId][codeHash];
        if (!inv.exists) revert InviteUnknown();
        if (inv.revoked) revert InviteRevoked();
        if (inv.expiresAt != 0 && block.timestamp >= inv.expiresAt) revert InviteExpired(inv.expiresAt);
        if (inv.maxUses != 0 && inv.uses >= inv.maxUses) revert InviteExhausted(inv.maxUses);
        if (members[duelId][member]) revert AlreadyMember();
        inv.uses += 1;
        members[duelId][member] = true;
        emit MemberAdded(duelId, member, codeHash);
    }

    // ---- views ----

    function poolBalances(bytes32 duelId) external view returns (uint256[] memory) {
        return markets[duelId].balances;
    }

    function marketInfo(bytes32 duelId)
        external
        view
        returns (address creator, address collateral, uint64 startTime, uint64 endTime, uint16 feeBps, bool isPrivate, uint8 status)
    {
        Market storage m = markets[duelId];
        return (m.creator, address(m.collateral), m.startTime, m.endTime, m.feeBps, m.isPrivate, uint8(m.status));
    }

    function settlementInfo(bytes32 duelId)
        external
        view
        returns (uint8 outcome, uint64 resolvedAt, uint64 contestPeriod, uint256 funding, uint256 fees, uint256 held)
    {
        Market storage m = markets[duelId];
        return (m.outcome, m.resolvedAt, m.contestPeriod, m.funding, m.fees, m.held);
    }

    function _known(bytes32 duelId) private view returns (Market storage m) {
        m = markets[duelId];
        if (m.status == Status.None) revert UnknownMarket();
    }

    function _tradable(bytes32 duelId, uint8 option) private view returns (Market storage m) {
        m = _known(duelId);
        if (m.status != Status.Open) revert MarketNotOpen(uint8(m.status));
        if (block.timestamp >= m.endTime) revert MarketClosed(m.endTime);
        if (option >= m.balances.length) revert InvalidOption(option);
        if (m.isPrivate && !members[duelId][msg.sender]) revert NotMember();
    }

    function _ceilDiv(uint256 a, uint256 b) private pure returns (uint256) {
        return (a + b - 1) / b;
    }
}
