import { encodeAbiParameters, getContractAddress, keccak256, parseAbi, type Address, type Hex } from 'viem';

/** Polygon mainnet: the exchange's EIP-712 domains name this chain, so the simulator uses it too. */
export const POLYGON_CHAIN_ID = 137;

/** Contract addresses of the upstream exchange on Polygon (overridable through config). */
export const EXT_CONTRACTS = {
  ctf: '0x4D97DCd97eC945f40cF65F87097ACe5EA0476045',
  exchangeV2: '0xE111180000d2663C0091e4f400237545B87B996B',
  negRiskExchangeV2: '0xe2222d279d744050d28e00520010520000310F59',
  negRiskAdapter: '0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296',
  pUsd: '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB',
  usdcE: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174',
  usdc: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  onramp: '0x93070a847efEf7F70739046A929D47a521F5B8ee',
  offramp: '0x2957922Eb93258b93368531d39fAcCA3B4dC5854',
  ctfCollateralAdapter: '0xAdA100Db00Ca00073811820692005400218FcE1f',
  negRiskCtfCollateralAdapter: '0xadA2005600Dec949baf300f4C6120000bDB6eAab',
  safeFactory: '0xaacFeEa03eb1561C4e67d661e40682Bd20E3541b',
  depositWalletFactory: '0x00000000000Fb5C9ADea0298D729A0CB3823Cc07',
} as const satisfies Record<string, Address>;

/** The spenders a trading wallet approves: both V2 exchanges and the neg-risk adapter. */
export const TRADING_SPENDERS: readonly Address[] = [
  EXT_CONTRACTS.exchangeV2,
  EXT_CONTRACTS.negRiskExchangeV2,
  EXT_CONTRACTS.negRiskAdapter,
];

/** Collateral and outcome shares both have 6 decimals upstream. */
export const EXT_DECIMALS = 6;
export const EXT_UNIT = 1_000_000n;
export const MAX_UINT256 = 2n ** 256n - 1n;

/** The calls the service sends through the relayer and the simulator decodes. */
export const EXT_CALL_ABI = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function setApprovalForAll(address operator, bool approved)',
  'function wrap(address _asset, address _to, uint256 _amount)',
  'function unwrap(address _asset, address _to, uint256 _amount)',
  'function redeemPositions(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] indexSets)',
  'function balanceOf(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function balanceOf(address owner, uint256 id) view returns (uint256)',
]);

/** Init-code hash of the upstream's Safe proxy (from its relayer client). */
const SAFE_INIT_CODE_HASH: Hex = '0x2bce2127ff07fb632d16c8347c4ebf501f4841168bed00d9e6ef715ddb6fcecf';

/** The Safe a signer owns: CREATE2 from the Safe factory, salted with the ABI-encoded owner. */
export function safeAddressOf(owner: Address): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: EXT_CONTRACTS.safeFactory,
    salt: keccak256(encodeAbiParameters([{ type: 'address' }], [owner])),
    bytecodeHash: SAFE_INIT_CODE_HASH,
  });
}

/**
 * The deposit wallet a signer owns. Upstream derives it from its factory's proxy (which needs a
 * chain read); the service and the simulator use CREATE2 from the factory salted with the owner and
 * the hash of the factory address, documented in docs/external-markets.md as the one inference of
 * the wallet model, and overridable by asking the relayer (`/deployed`) for the real one.
 */
export function depositWalletAddressOf(owner: Address): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: EXT_CONTRACTS.depositWalletFactory,
    salt: keccak256(encodeAbiParameters([{ type: 'address' }], [owner])),
    bytecodeHash: keccak256(EXT_CONTRACTS.depositWalletFactory),
  });
}

/** Decimals of price, size and amount per tick size, as the upstream client rounds them. */
export const ROUNDING: Record<string, { price: number; size: number; amount: number }> = {
  '0.1': { price: 1, size: 2, amount: 3 },
  '0.01': { price: 2, size: 2, amount: 4 },
  '0.005': { price: 3, size: 2, amount: 5 },
  '0.0025': { price: 4, size: 2, amount: 6 },
  '0.001': { price: 3, size: 2, amount: 5 },
  '0.0001': { price: 4, size: 2, amount: 6 },
};

/** A decimal string ("0.55", "12.5") as 6-decimal base units; undefined when it has more decimals. */
export function toMicro(value: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(value);
  if (!m) return undefined;
  return BigInt(m[1]!) * EXT_UNIT + BigInt((m[2] ?? '').padEnd(6, '0'));
}

/** 6-decimal base units as a decimal string without trailing zeros. */
export function fromMicro(value: bigint): string {
  const neg = value < 0n;
  const v = neg ? -value : value;
  const frac = (v % EXT_UNIT).toString().padStart(6, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${v / EXT_UNIT}${frac ? `.${frac}` : ''}`;
}

/** A JSON scalar as text; anything else (absent, an object) is `fallback`. */
export function text(v: unknown, fallback = ''): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return fallback;
}
