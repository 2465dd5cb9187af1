/**
 * `pnpm credits:grant --address 0x… (--amount <base units> | --units <whole units>) [--stack credits|usdc] [--key <grant key>]`
 * Mints collateral to an address through the running server's chain port (the operator account
 * signs inside the server; usdc only on test chains). Each grant has a key (a fresh one unless
 * `--key` names it, printed either way): running the command again with the same key mints
 * nothing more and answers the first grant, so a run that failed half-way can be repeated safely.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { isAddress } from 'viem';
import { z } from 'zod';
import { callOperator, runCommand } from './operator-client.js';

const { values } = parseArgs({
  options: {
    address: { type: 'string' },
    amount: { type: 'string' },
    units: { type: 'string' },
    stack: { type: 'string' },
    key: { type: 'string' },
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
    key: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{8,128}$/, '8 to 128 letters, digits or _ . : -')
      .optional(),
  })
  .refine(
    (a) => Boolean(a.amount) !== Boolean(a.units),
    'give exactly one of --amount (base units) or --units (whole units)',
  )
  .safeParse(values);
if (!args.success) {
  console.error(
    'usage: pnpm credits:grant --address 0x… (--amount <base units> | --units <whole units>) [--stack credits|usdc] [--key <grant key>]',
  );
  console.error(args.error.issues.map((i) => `  ${i.path.join('.') || 'args'}: ${i.message}`).join('\n'));
  process.exit(2);
}
const { address, stack } = args.data;
const amount = args.data.amount ?? (BigInt(args.data.units as string) * 10n ** 18n).toString();
const key = args.data.key ?? randomUUID();
await runCommand(async () => {
  try {
    const minted = await callOperator<{ to: string; txHash: string; status: string; balance: string }>(
      '/operator/credits',
      { address, amount, stack, key },
    );
    console.log(
      `minted ${amount} base units of ${stack} to ${minted.to} (tx ${minted.txHash}, ${minted.status}; grant key ${key}); balance ${minted.balance}`,
    );
  } catch (err) {
    console.error(
      `grant key ${key}: run the command again with --key ${key} to repeat this grant without minting twice`,
    );
    throw err;
  }
});
