// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";

/// @title Prize vault of one collateral token
/// @notice Holds the money of pools — a pack's entry fees, a tournament's buy-ins, a creator's
/// bond — each named by a bytes32 id. Anyone deposits into a pool; the platform operator releases
/// from a pool (refunds before a pool starts, bond withdrawals, fees) and publishes Merkle roots
/// of payouts and refunds; anyone may then submit a claim, and the money always goes to the
/// account in the leaf. A leaf is the OpenZeppelin StandardMerkleTree leaf of
/// (bytes32 poolId, address account, uint256 amount): keccak256(bytes.concat(keccak256(abi.encode(...)))).
contract PrizeVault {
    using SafeERC20 for IERC20;

    uint8 public constant PAYOUT = 0;
    uint8 public constant REFUND = 1;

    struct Distribution {
        bytes32 root;
        uint256 total;
        uint256 claimed;
    }

    IERC20 public immutable token;
    address public immutable operator;

    /// Money of a pool not yet set aside for a distribution.
    mapping(bytes32 => uint256) public poolBalance;
    mapping(bytes32 => mapping(uint8 => Distribution)) public distributions;
    mapping(bytes32 => mapping(uint8 => mapping(address => bool))) public claimed;

    event Deposited(bytes32 indexed poolId, uint8 indexed stage, address indexed from, uint256 amount);
    event Released(bytes32 indexed poolId, address indexed to, uint256 amount, bytes32 reason);
    event RootSet(bytes32 indexed poolId, uint8 indexed kind, bytes32 root, uint256 total);
    event Claimed(bytes32 indexed poolId, uint8 indexed kind, address indexed account, uint256 amount);

    error NotOperator();
    error ZeroAmount();
    error UnknownKind(uint8 kind);
    error RootAlreadySet(bytes32 poolId, uint8 kind);
    error RootNotSet(bytes32 poolId, uint8 kind);
    error AlreadyClaimed(bytes32 poolId, uint8 kind, address account);
    error InvalidProof();
    error InsufficientPoolBalance(uint256 available, uint256 needed);
    error DistributionExhausted(uint256 remaining, uint256 needed);

    constructor(IERC20 token_, address operator_) {
        token = token_;
        operator = operator_;
    }

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator();
        _;
    }

    /// @notice Pays `amount` of the token into `poolId`; `stage` says what the deposit is for
    /// (a tournament stage's buy-in, 0 for a pack entry or a bond). Needs an allowance.
    function deposit(bytes32 poolId, uint8 stage, uint256 amount) external {
        if (amount == 0) revert ZeroAmount();
        token.safeTransferFrom(msg.sender, address(this), amount);
        poolBalance[poolId] += amount;
        emit Deposited(poolId, stage, msg.sender, amount);
    }

    /// @notice Pays `amount` out of a pool's unreserved balance (operator only).
    function release(bytes32 poolId, address to, uint256 amount, bytes32 reason) external onlyOperator {
        if (amount == 0) revert ZeroAmount();
        uint256 available = poolBalance[poolId];
        if (amount > available) revert InsufficientPoolBalance(available, amount);
        poolBalance[poolId] = available - amount;
        token.safeTransfer(to, amount);
        emit Released(poolId, to, amount, reason);
    }

    /// @notice Publishes the root of a payout or refund distribution and sets its total aside
    /// from the pool's balance. Once per pool and kind.
    function setRoot(bytes32 poolId, uint8 kind, bytes32 root, uint256 total) external onlyOperator {
        if (kind > REFUND) revert UnknownKind(kind);
        Distribution storage d = distributions[poolId][kind];
        if (d.root != bytes32(0)) revert RootAlreadySet(poolId, kind);
        uint256 available = poolBalance[poolId];
        if (total > available) revert InsufficientPoolBalance(available, total);
        poolBalance[poolId] = available - total;
        d.root = root;
        d.total = total;
        emit RootSet(poolId, kind, root, total);
    }

    /// @notice Pays `account` its leaf of a published distribution, once. Callable by anyone.
    function claim(bytes32 poolId, uint8 kind, address account, uint256 amount, bytes32[] calldata proof) external {
        Distribution storage d = distributions[poolId][kind];
        if (d.root == bytes32(0)) revert RootNotSet(poolId, kind);
        if (claimed[poolId][kind][account]) revert AlreadyClaimed(poolId, kind, account);
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(poolId, account, amount))));
        if (!MerkleProof.verifyCalldata(proof, d.root, leaf)) revert InvalidProof();
        uint256 remaining = d.total - d.claimed;
        if (amount > remaining) revert DistributionExhausted(remaining, amount);
        claimed[poolId][kind][account] = true;
        d.claimed += amount;
        token.safeTransfer(account, amount);
        emit Claimed(poolId, kind, account, amount);
    }
}
