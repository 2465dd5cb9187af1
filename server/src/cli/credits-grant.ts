/**
 * `pnpm credits:grant --address 0x… (--amount <base units> | --units <whole units>) [--stack credits|usdc] [--rpc <url>]`
 * Mints collateral from the operator. On embedded defaults it reaches the running server's
 * in-process EVM through its loopback JSON-RPC (CHAIN_EMBEDDED_RPC_PORT, 8545 by default).
 */
import { parseArgs } from 'node:util';
import { createPublicClient, createWalletClient, getAddress, http, isAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { CollateralTokenAbi } from '../adapters/chain/artifacts/CollateralToken.js';
import { loadConfig } from '../config.js';

const { values } = parseArgs({
  options: {
    address: { type: 'string' },
    amount: { type: 'string' },
    units: { type: 'string' },
    stack: { type: 'string' },
    rpc: { type: 'string' },
  },
  strict: true,
});
const args = z
  .object({
    address: z.string().refine((a) => isAddress(a, { strict: false }), 'not an address'),
    amount: z
      .string()
      .regex(/^[1-9][0-9]*$/)
      .optional(),
    units: z
      .string()
      .regex(/^[1-9][0-9]*$/)
      .optional(),
    stack: z.enum(['credits', 'usdc']).default('credits'),
    rpc: z.string().url().optional(),
  })
  .refine(
    (a) => Boolean(a.amount) !== Boolean(a.units),
    'give exactly one of --amount (base units) or --units (whole units)',
  )
  .safeParse(values);
if (!args.success) {
  console.error(
    'usage: pnpm credits:grant --address 0x… (--amount <base units> | --units <whole units>) [--stack credits|usdc] [--rpc <url>]',
  );
  console.error(args.error.issues.map((i) => `  ${i.path.join('.') || 'args'}: ${i.message}`).join('\n'));
  process.exit(2);
}
const config = loadConfig();
const amount = args.data.amount ? BigInt(args.data.amount) : BigInt(args.data.units as string) * 10n ** 18n;
const rpcUrl =
  args.data.rpc ??
  config.chain.rpcUrl ??
  `http://127.0.0.1:${config.chain.embeddedRpcPort === null ? 8545 : config.chain.embeddedRpcPort || 8545}`;
let addresses = config.chain.addresses;
if (!config.chain.rpcUrl || args.data.rpc) {
  const res = await fetch(`${rpcUrl}/duelkit/contracts`).catch(() => null);
  if (!res?.ok) {
    console.error(`No embedded Duelkit chain answers at ${rpcUrl}: start the server (pnpm start) or pass --rpc.`);
    process.exit(1);
  }
  addresses = (await res.json()) as NonNullable<typeof addresses>;
}
if (!addresses) throw new Error('unknown contract addresses');
const account = privateKeyToAccount(config.chain.operatorKey);
const transport = http(rpcUrl);
const pub = createPublicClient({ transport });
const wallet = createWalletClient({ transport, account });
const to = getAddress(args.data.address);
const { request } = await pub.simulateContract({
  address: addresses[args.data.stack],
  abi: CollateralTokenAbi,
  functionName: 'mint',
  args: [to, amount],
  account,
});
const hash = await wallet.writeContract(request);
await pub.waitForTransactionReceipt({ hash });
const balance = await pub.readContract({
  address: addresses[args.data.stack],
  abi: CollateralTokenAbi,
  functionName: 'balanceOf',
  args: [to],
});
console.log(`minted ${amount} base units of ${args.data.stack} to ${to} (tx ${hash}); balance ${balance}`);
