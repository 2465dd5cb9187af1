/**
 * A webhook receiver: a small node:http server that verifies each delivery's `Duelkit-Signature`
 * with the SDK (over the raw body, before parsing it) and prints every verified event as one JSON
 * line. Register its URL with `client.webhooks.createEndpoint` and start it with the secret that
 * answers (docs/events.md, "Webhooks").
 *
 *   DUELKIT_WEBHOOK_SECRET=whsec_… PORT=4000 pnpm --filter @duelkit/examples webhook-backend
 *
 * `EXIT_AFTER=<n>` stops it after n verified events (a test harness's convenience).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DuelkitEvent, EventType } from '@duelkit/contract';
import { verifyWebhookSignature } from '@duelkit/sdk';

const secret = process.env['DUELKIT_WEBHOOK_SECRET'];
const port = Number(process.env['PORT'] ?? '4000');
const exitAfter = process.env['EXIT_AFTER'] ? Number(process.env['EXIT_AFTER']) : undefined;
if (!secret || !Number.isInteger(port)) {
  console.error('Set DUELKIT_WEBHOOK_SECRET (the secret createEndpoint answered) and PORT.');
  process.exit(2);
}

/** The body exactly as sent: the signature covers these bytes, not a re-serialised object. */
async function rawBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** One line per event; what a real backend would do with each type goes here. */
function handle(event: DuelkitEvent): void {
  const summary: Partial<Record<EventType, string>> = {
    'bet.confirmed': 'a trade was confirmed',
    'duel.settled': 'a market settled',
    'payout.claimable': 'a payout can be claimed',
    'deposit.credited': 'a deposit was credited',
    'webhook.test': 'a test delivery',
  };
  console.log(
    JSON.stringify({ verified: true, id: event.id, seq: event.seq, type: event.type, what: summary[event.type] }),
  );
}

const seen = new Set<string>();
let verified = 0;
const server = createServer((req, res) => {
  void (async () => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const body = await rawBody(req);
    const header = req.headers['duelkit-signature'];
    if (!(await verifyWebhookSignature(body, Array.isArray(header) ? header[0] : header, secret))) {
      console.error('refused a delivery with a missing, stale or wrong signature');
      res.writeHead(400).end();
      return;
    }
    const event = JSON.parse(body) as DuelkitEvent;
    // At least once: a redelivery keeps the event's id, so act on each id once.
    if (!seen.has(event.id)) {
      seen.add(event.id);
      handle(event);
      verified++;
    }
    const done = exitAfter !== undefined && verified >= exitAfter;
    res.writeHead(204).end(() => {
      if (done) process.exit(0);
    });
  })().catch((err: unknown) => {
    console.error(err);
    res.writeHead(500).end();
  });
});
server.listen(port, '127.0.0.1', () => {
  console.error(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
