/** `pnpm admin:create --email <email> --password <password>`: creates an admin account on the running server. */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { callOperator, runCommand } from './operator-client.js';

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } }, strict: true });
const args = z
  .object({ email: z.string().email(), password: z.string().min(12, 'at least 12 characters') })
  .safeParse(values);
if (!args.success) {
  console.error('usage: pnpm admin:create --email <email> --password <password (≥ 12 characters)>');
  console.error(args.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n'));
  process.exit(2);
}
const body = args.data;
await runCommand(async () => {
  const admin = await callOperator<{ id: string; email: string }>('/operator/admins', body);
  console.log(`admin ${admin.email} created (id ${admin.id}); sign in at POST /svc/admin/auth/login and turn on 2FA`);
});
