/**
 * `pnpm time:advance --seconds <n>`
 * Moves the running server's time and its embedded chain's time forward together, so a deadline
 * (a market's end, a contest period, an invitation's expiry) passes at once. Embedded chain only:
 * a real chain keeps its own time. Meant for development and tests; it cannot be undone.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { callOperator, runCommand } from './operator-client.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' } }, strict: true });
const args = z
  .object({ seconds: z.string().regex(/^[1-9][0-9]{0,7}$/, 'a positive whole number of seconds') })
  .safeParse(values);
if (!args.success) {
  console.error('usage: pnpm time:advance --seconds <n>');
  console.error(args.error.issues.map((i) => `  ${i.path.join('.') || 'args'}: ${i.message}`).join('\n'));
  process.exit(2);
}
const seconds = Number(args.data.seconds);
await runCommand(async () => {
  const moved = await callOperator<{ now: string }>('/operator/time/advance', { seconds });
  console.log(`time moved forward ${seconds} s: the server's now is ${moved.now}`);
});
