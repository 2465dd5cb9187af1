// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @notice Prediction markets ("duels") with 2..8 options, each priced by a fixed-product market
/// maker. The arithmetic mirrors server/src/chain/fpmm.math.ts exactly (see docs/amm.md).
contract DuelMarkets {
    using SafeERC20 for IERC20;

    uint256 private constant ONE = 1e18;
    uint256 private constant BPS = 10_000;
    uint256 public constant MIN_BET = 5e18;

    enum Status {
        None,
        Open
    }

    struct Market {
        address creator;
        IERC20 collateral;
        uint64 startTime;
        uint64 endTime;
        uint16 feeBps;
        bool isPrivate;
        Status status;
        uint256[] balances;
    }

    mapping(bytes32 => Market) private markets;
    /// @notice Shares held: duelId => holder => option => amount.
    mapping(bytes32 => mapping(address => mapping(uint256 => uint256))) public shares;

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
        uint64 minLead
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
        for (uint256 i = 0; i < options; i++) {
            m.balances.push(funding);
        }
        collateral.safeTransferFrom(msg.sender, address(this), funding);
        emit MarketCreated(duelId, msg.sender, address(collateral), options, startTime, endTime, feeBps, isPrivate, funding);
    }

    /// @notice Buys option `option` with `investment` collateral; reverts below `minSharesOut`.
    function buy(bytes32 duelId, uint8 option, uint256 investment, uint256 minSharesOut) external returns (uint256 sharesOut) {
        Market storage m = _open(duelId, option);
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
        m.collateral.safeTransferFrom(msg.sender, address(this), investment);
        emit Bought(duelId, msg.sender, option, investment, fee, sharesOut, b);
    }

    /// @notice Sells shares of `option` for exactly `returnAmount` collateral; reverts above `maxSharesIn`.
    function sellForReturn(bytes32 duelId, uint8 option, uint256 returnAmount, uint256 maxSharesIn)
        external
        returns (uint256 sharesIn)
    {
        Market storage m = _open(duelId, option);
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
        m.collateral.safeTransfer(msg.sender, returnAmount);
        emit Sold(duelId, msg.sender, option, returnAmount, returnPlusFees - returnAmount, sharesIn, b);
    }

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

    function _open(bytes32 duelId, uint8 option) private view returns (Market storage m) {
        m = markets[duelId];
        if (m.status == Status.None) revert UnknownMarket();
        if (m.status != Status.Open) revert MarketNotOpen(uint8(m.status));
        if (option >= m.balances.length) revert InvalidOption(option);
    }

    function _ceilDiv(uint256 a, uint256 b) private pure returns (uint256) {
        return (a + b - 1) / b;
    }
}
