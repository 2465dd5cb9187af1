/**
 * `pnpm keys:create --name <name> --tier team|selfserve [--app <builderAppId>]`
 * Creates a builder API key (in a new builder app unless --app names one) and prints it once.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { BuilderKeyRepository } from '../areas/builders/builder-key.repository.js';
import { BuilderKeyService } from '../areas/builders/builder-key.service.js';
import { loadConfig } from '../config.js';
import { openDatabase } from './database.js';

const { values } = parseArgs({
  options: { name: { type: 'string' }, tier: { type: 'string' }, app: { type: 'string' } },
  strict: true,
});
const args = z
  .object({
    name: z.string().min(1).max(200),
    tier: z.enum(['team', 'selfserve']),
    app: z.string().uuid().optional(),
  })
  .safeParse(values);
if (!args.success) {
  console.error('usage: pnpm keys:create --name <name> --tier team|selfserve [--app <builderAppId>]');
  console.error(args.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n'));
  process.exit(2);
}
const db = await openDatabase(loadConfig());
try {
  const created = await new BuilderKeyService(new BuilderKeyRepository(db.orm), 0).create({
    name: args.data.name,
    tier: args.data.tier,
    ...(args.data.app ? { builderAppId: args.data.app } : {}),
  });
  console.log(`builder app: ${created.tenant.builderAppId}`);
  console.log(`key id:      ${created.tenant.keyId}`);
  console.log(`tier:        ${created.tenant.tier}`);
  console.log(`key:         ${created.key}`);
  console.log('Store the key now: it is kept only as a hash and cannot be shown again.');
} finally {
  await db.close();
}
