/**
 * `pnpm credits:grant --address 0x… (--amount <base units> | --units <whole units>) [--stack credits|usdc]`
 * Mints collateral to an address through the running server's chain port (the operator account
 * signs inside the server; usdc only on test chains).
 */
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
  })
  .refine(
    (a) => Boolean(a.amount) !== Boolean(a.units),
    'give exactly one of --amount (base units) or --units (whole units)',
  )
  .safeParse(values);
if (!args.success) {
  console.error(
    'usage: pnpm credits:grant --address 0x… (--amount <base units> | --units <whole units>) [--stack credits|usdc]',
  );
  console.error(args.error.issues.map((i) => `  ${i.path.join('.') || 'args'}: ${i.message}`).join('\n'));
  process.exit(2);
}
const { address, stack } = args.data;
const amount = args.data.amount ?? (BigInt(args.data.units as string) * 10n ** 18n).toString();
await runCommand(async () => {
  const minted = await callOperator<{ to: string; txHash: string; status: string; balance: string }>(
    '/operator/credits',
    { address, amount, stack },
  );
  console.log(
    `minted ${amount} base units of ${stack} to ${minted.to} (tx ${minted.txHash}, ${minted.status}); balance ${minted.balance}`,
  );
});
