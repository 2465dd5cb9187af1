/** `pnpm admin:create --email <email> --password <password>`: creates an admin account. */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { AdminAuthService } from '../areas/identity/admin-auth.service.js';
import { AdminRepository } from '../areas/identity/admin.repository.js';
import { SecretBox } from '../areas/identity/secret-box.js';
import { TokenService } from '../areas/identity/token.service.js';
import { openDatabase } from './database.js';

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } }, strict: true });
const args = z
  .object({ email: z.string().email(), password: z.string().min(12, 'at least 12 characters') })
  .safeParse(values);
if (!args.success) {
  console.error('usage: pnpm admin:create --email <email> --password <password (≥ 12 characters)>');
  console.error(args.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n'));
  process.exit(2);
}
const config = loadConfig();
const db = await openDatabase(config);
try {
  const tokens = new TokenService(config.auth.jwtSecret, config.auth.previousJwtSecrets, 60, 60);
  const admins = new AdminAuthService(new AdminRepository(db.orm), new SecretBox(config.auth.walletMasterKey), tokens);
  const admin = await admins.create(args.data.email, args.data.password);
  console.log(`admin ${admin.email} created (id ${admin.id}); sign in at POST /svc/admin/auth/login and turn on 2FA`);
} finally {
  await db.close();
}
