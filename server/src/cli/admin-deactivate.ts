/**
 * `pnpm admin:deactivate --email <email>`: switches an admin account off on the running server. It
 * can no longer sign in, and every token it holds stops working at once.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { callOperator, runCommand } from './operator-client.js';

const { values } = parseArgs({ options: { email: { type: 'string' } }, strict: true });
const args = z.object({ email: z.string().email() }).safeParse(values);
if (!args.success) {
  console.error('usage: pnpm admin:deactivate --email <email>');
  process.exit(2);
}
const { email } = args.data;
await runCommand(async () => {
  const { deactivated } = await callOperator<{ deactivated: boolean }>('/operator/admins/deactivate', { email });
  console.log(deactivated ? `admin ${email} deactivated` : `no active admin ${email}`);
  if (!deactivated) process.exitCode = 1;
});
