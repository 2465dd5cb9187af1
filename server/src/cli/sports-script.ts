/**
 * `pnpm sports:script --fixture <id> [--fixture <id>…] [--event <id>…]`
 * Prints how the local sports simulator will end football fixtures (score and 1X2 outcome) and
 * motorsport sessions (the classification), before they are played: what a demo or a test needs
 * to set up a winner. Local simulator only (`SPORTS_PROVIDER=fake`, the embedded default).
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { callOperator, runCommand } from './operator-client.js';

interface Script {
  fixtures: {
    id: number;
    home: string;
    away: string;
    kickoffAt: string;
    state: string;
    homeGoals: number | null;
    awayGoals: number | null;
    outcome: string | null;
  }[];
  events: { id: number; eventType: string; startsAt: string; order: number[]; dnfDriverIds: number[] }[];
}

const { values } = parseArgs({
  options: { fixture: { type: 'string', multiple: true }, event: { type: 'string', multiple: true } },
  strict: true,
});
const Id = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/, 'a positive whole number')
  .transform(Number);
const args = z
  .object({ fixture: z.array(Id).default([]), event: z.array(Id).default([]) })
  .refine((a) => a.fixture.length + a.event.length > 0, { message: 'name at least one --fixture or --event' })
  .safeParse(values);
if (!args.success) {
  console.error('usage: pnpm sports:script --fixture <id> [--fixture <id>…] [--event <id>…]');
  console.error(args.error.issues.map((i) => `  ${i.path.join('.') || 'args'}: ${i.message}`).join('\n'));
  process.exit(2);
}
await runCommand(async () => {
  const script = await callOperator<Script>('/operator/sports/script', {
    fixtureIds: args.data.fixture,
    eventIds: args.data.event,
  });
  for (const f of script.fixtures) {
    const score = f.state === 'cancelled' ? 'cancelled' : `${f.homeGoals}–${f.awayGoals} (${f.outcome})`;
    console.log(`fixture ${f.id}  ${f.kickoffAt}  ${f.home} v ${f.away}: ${score}`);
  }
  for (const e of script.events) {
    const retired = e.dnfDriverIds.length > 0 ? `; retired ${e.dnfDriverIds.join(', ')}` : '';
    console.log(`event ${e.id}  ${e.startsAt}  ${e.eventType}: ${e.order.join(', ')}${retired}`);
  }
});
