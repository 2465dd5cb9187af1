/**
 * `pnpm admin:deactivate --email <email>`: switches an admin account off. It can no longer sign
 * in, and every token it holds stops working at once.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { AdminAuthService } from '../areas/identity/admin-auth.service.js';
import { AdminRepository } from '../areas/identity/admin.repository.js';
import { SecretBox } from '../areas/identity/secret-box.js';
import { TokenService } from '../areas/identity/token.service.js';
import { openDatabase } from './database.js';

const { values } = parseArgs({ options: { email: { type: 'string' } }, strict: true });
const args = z.object({ email: z.string().email() }).safeParse(values);
if (!args.success) {
  console.error('usage: pnpm admin:deactivate --email <email>');
  process.exit(2);
}
const config = loadConfig();
const db = await openDatabase(config);
try {
  const tokens = new TokenService(config.auth.jwtSecret, config.auth.previousJwtSecrets, 60, 60);
  const admins = new AdminAuthService(new AdminRepository(db.orm), new SecretBox(config.auth.walletMasterKey), tokens);
  const done = await admins.deactivate(args.data.email);
  console.log(done ? `admin ${args.data.email} deactivated` : `no active admin ${args.data.email}`);
  if (!done) process.exitCode = 1;
} finally {
  await db.close();
}
