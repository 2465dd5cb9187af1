// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice Collateral with 18 decimals: platform credits, or a USDC-like token for the usdc stack.
contract CollateralToken is ERC20, Ownable {
    constructor(string memory name_, string memory symbol_, address owner_) ERC20(name_, symbol_) Ownable(owner_) {}

    /// @notice Platform funding (credits grants, test faucets).
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
