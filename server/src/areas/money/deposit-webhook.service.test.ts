import type { BridgeDepositEvent } from '@duelkit/contract';
import { getAddress, type Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { repositoryMock } from '../../../test/fakes/repository.mock.js';
import type { BridgePort } from '../../adapters/bridge/bridge.port.js';
import type { NotificationsPort, UserNotification } from '../../adapters/notifications/notifications.port.js';
import { createLogger } from '../../logger.js';
import { ManualClock } from '../../platform/clock.js';
import type { DepositRecord, DepositRepository, OutboxRecord } from './deposit.repository.js';
import { DepositWebhookService, signDelivery, type SignedDelivery } from './deposit-webhook.service.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const SECRET = 'bridge-secret-1';
const WALLET = getAddress('0x00000000000000000000000000000000000000aa');
const TOLERANCE = 300;

const eventOf = (eventId = 'evt-1', amount = '1000'): BridgeDepositEvent => ({
  eventId,
  type: 'deposit.completed',
  data: { address: WALLET.toLowerCase(), amount },
});

/** The bytes the provider sends, signed with `secret` at the clock's second (or `at`). */
function signed(event: BridgeDepositEvent, at: number, secret = SECRET): SignedDelivery {
  const rawBody = Buffer.from(JSON.stringify(event));
  const timestamp = String(Math.floor(at / 1000));
  return { rawBody, timestamp, signature: signDelivery(secret, timestamp, rawBody) };
}

/** `CODE:reason` of what `fn` throws, or `accepted`. */
function refusalOf(fn: () => void): string {
  try {
    fn();
    return 'accepted';
  } catch (err) {
    const { code, details } = err as { code: string; details?: { reason?: string } };
    return `${code}:${details?.reason ?? ''}`;
  }
}

type Outbox = OutboxRecord & { dedupeKey: string; status: 'pending' | 'delivered'; lastError: string | null };

/**
 * Deposits and the outbox in memory, recorded once per event id as the repository's statements
 * do; a bridge that credits once per event id and a notifier that fails when told to.
 */
function setup(options: { secrets?: string[]; bridge?: boolean } = {}) {
  const clock = new ManualClock(T0);
  const deposits = new Map<string, DepositRecord & { conflicts: number }>();
  const outbox: Outbox[] = [];
  const repo = repositoryMock<DepositRepository>();
  repo.userByAddress.mockImplementation((address) =>
    Promise.resolve(
      address.toLowerCase() === WALLET.toLowerCase() ? { id: 'user-1', managed_address: WALLET } : undefined,
    ),
  );
  repo.record.mockImplementation((d, n) => {
    if (deposits.has(d.eventId)) return Promise.resolve(false);
    deposits.set(d.eventId, {
      event_id: d.eventId,
      user_id: d.userId,
      address: d.address,
      amount: d.amount.toString(),
      status: 'received',
      tx_hash: null,
      payload_sha256: d.payloadSha256,
      conflicts: 0,
    });
    outbox.push({
      id: `n-${outbox.length + 1}`,
      dedupeKey: `bridge.deposit:${d.eventId}`,
      user_id: d.userId,
      kind: n.kind,
      payload: { title: n.title, body: n.body, data: n.data },
      status: 'pending',
      lastError: null,
    });
    return Promise.resolve(true);
  });
  repo.deposit.mockImplementation((id) => Promise.resolve(deposits.has(id) ? { ...deposits.get(id)! } : undefined));
  repo.noteConflict.mockImplementation((id) => Promise.resolve(++deposits.get(id)!.conflicts));
  repo.markCredited.mockImplementation((_sql, id, hash) => {
    Object.assign(deposits.get(id)!, { status: 'credited', tx_hash: hash });
    return Promise.resolve();
  });
  repo.uncredited.mockImplementation((limit) =>
    Promise.resolve(
      [...deposits.values()]
        .filter((d) => d.status === 'received')
        .slice(0, limit)
        .map((d) => d.event_id),
    ),
  );
  repo.claimOutbox.mockImplementation((limit, dedupeKey) =>
    Promise.resolve(
      outbox.filter((n) => n.status === 'pending' && (!dedupeKey || n.dedupeKey === dedupeKey)).slice(0, limit),
    ),
  );
  repo.outboxDone.mockImplementation((id, error) => {
    const n = outbox.find((o) => o.id === id)!;
    if (error === null) n.status = 'delivered';
    n.lastError = error;
    return Promise.resolve();
  });

  const credits: { eventId: string; to: string; amount: bigint }[] = [];
  const onChain = new Map<string, Hash>();
  let failNextCredit = false;
  const bridge: BridgePort = {
    name: 'fake',
    async deliverDeposit(d, record) {
      if (failNextCredit) {
        failNextCredit = false;
        throw new Error('RPC unreachable');
      }
      let hash = onChain.get(d.eventId);
      if (!hash) {
        hash = `0x${(onChain.size + 1).toString(16).padStart(64, '0')}`;
        onChain.set(d.eventId, hash);
        credits.push(d);
      }
      await record(() => Promise.resolve([]), hash);
      return hash;
    },
    send: () => Promise.reject(new Error('unused')),
    returnFunds: () => Promise.reject(new Error('unused')),
    status: () => Promise.reject(new Error('unused')),
  };
  const sent: UserNotification[] = [];
  let notifierDown = false;
  const notifications: NotificationsPort = {
    name: 'fake',
    send(n) {
      if (notifierDown) return Promise.reject(new Error('push provider down'));
      sent.push(n);
      return Promise.resolve();
    },
  };
  const service = new DepositWebhookService({
    repo,
    bridge: options.bridge === false ? undefined : bridge,
    notifications,
    clock,
    secrets: options.secrets ?? [SECRET],
    toleranceSeconds: TOLERANCE,
    logger: createLogger('silent'),
  });
  return {
    clock,
    deposits,
    outbox,
    credits,
    sent,
    service,
    failNextCredit: () => (failNextCredit = true),
    notifier: (down: boolean) => (notifierDown = down),
  };
}

describe('DepositWebhookService', () => {
  describe('signature', () => {
    it('accepts a delivery signed with a configured secret within the tolerance, either side of now', async () => {
      const { service, clock } = setup({ secrets: ['old-secret', SECRET] });
      const event = eventOf();

      expect(() => service.authenticate(signed(event, clock.now() - TOLERANCE * 1000))).not.toThrow();
      expect(() => service.authenticate(signed(event, clock.now() + TOLERANCE * 1000))).not.toThrow();
      expect(() => service.authenticate(signed(event, clock.now(), 'old-secret'))).not.toThrow();
    });

    it('refuses a delivery older or newer than the tolerance as stale', () => {
      const { service, clock } = setup();
      const event = eventOf();

      for (const at of [clock.now() - (TOLERANCE + 1) * 1000, clock.now() + (TOLERANCE + 1) * 1000]) {
        expect(refusalOf(() => service.authenticate(signed(event, at)))).toBe('SIGNATURE_INVALID:stale');
      }
    });

    it('refuses a changed body, another secret, or a missing header, each with its reason', () => {
      const { service, clock } = setup();
      const good = signed(eventOf(), clock.now());
      const reasonOf = (d: SignedDelivery) => refusalOf(() => service.authenticate(d));

      expect(reasonOf({ ...good, rawBody: Buffer.from(JSON.stringify(eventOf('evt-1', '9999'))) })).toBe(
        'SIGNATURE_INVALID:mismatch',
      );
      expect(reasonOf(signed(eventOf(), clock.now(), 'not-our-secret'))).toBe('SIGNATURE_INVALID:mismatch');
      expect(reasonOf({ ...good, signature: `v0=${good.signature!.slice(3)}` })).toBe('SIGNATURE_INVALID:mismatch');
      expect(reasonOf({ ...good, signature: undefined })).toBe('SIGNATURE_INVALID:missing');
      expect(reasonOf({ ...good, timestamp: undefined })).toBe('SIGNATURE_INVALID:missing');
      expect(reasonOf({ ...good, rawBody: undefined })).toBe('SIGNATURE_INVALID:missing');
      expect(reasonOf({ ...good, timestamp: `${good.timestamp}.5` })).toBe('SIGNATURE_INVALID:timestamp');
      expect(reasonOf({ ...good, timestamp: String(T0) + '0000' })).toBe('SIGNATURE_INVALID:timestamp');
    });

    it('accepts a header listing several signatures when one of them matches', () => {
      const { service, clock } = setup();
      const good = signed(eventOf(), clock.now());

      expect(() =>
        service.authenticate({ ...good, signature: `v1=${'ab'.repeat(32)}, ${good.signature}` }),
      ).not.toThrow();
    });

    it('answers SERVICE_UNAVAILABLE, retry in a minute, when no secret or no bridge is configured', () => {
      const delivery = signed(eventOf(), T0);
      const unset = setup({ secrets: [] }).service;
      expect(refusalOf(() => unset.authenticate(delivery))).toBe('SERVICE_UNAVAILABLE:BRIDGE_WEBHOOK_SECRET unset');
      expect(() => unset.authenticate(delivery)).toThrow(expect.objectContaining({ retryAfterMs: 60_000 }) as Error);
      const noBridge = setup({ bridge: false }).service;
      expect(refusalOf(() => noBridge.authenticate(delivery))).toBe('SERVICE_UNAVAILABLE:no bridge provider');
    });
  });

  describe('receive', () => {
    it('credits a deposit once, to the managed wallet, and notifies its user', async () => {
      const { service, clock, credits, deposits, sent, outbox } = setup();
      const event = eventOf('evt-1', '1000');

      const receipt = await service.receive(signed(event, clock.now()), event);

      expect(receipt).toEqual({
        eventId: 'evt-1',
        status: 'credited',
        amount: '1000',
        address: WALLET,
        txHash: `0x${'1'.padStart(64, '0')}`,
      });
      expect(credits).toEqual([{ eventId: 'evt-1', to: WALLET, amount: 1000n }]);
      expect(deposits.get('evt-1')).toMatchObject({ status: 'credited', tx_hash: receipt.txHash, user_id: 'user-1' });
      expect(sent).toEqual([
        {
          id: 'n-1',
          userId: 'user-1',
          kind: 'bridge.deposit',
          title: 'Deposit received',
          body: '1000 base units of usdc arrived in your wallet',
          data: { eventId: 'evt-1', amount: '1000' },
        },
      ]);
      expect(outbox[0]?.status).toBe('delivered');
    });

    it('answers a retry of the same delivery as a duplicate with the same transaction, crediting and notifying nothing more', async () => {
      const { service, clock, credits, sent } = setup();
      const event = eventOf();
      const first = await service.receive(signed(event, clock.now()), event);
      clock.advance(60_000);

      const retry = await service.receive(signed(event, clock.now()), event);

      expect(retry).toEqual({ ...first, status: 'duplicate' });
      expect(credits).toHaveLength(1);
      expect(sent).toHaveLength(1);
    });

    it('refuses the same event id with another payload with WEBHOOK_EVENT_CONFLICT, counting each, crediting nothing', async () => {
      const { service, clock, credits, deposits } = setup();
      const event = eventOf('evt-1', '1000');
      await service.receive(signed(event, clock.now()), event);
      const forged = eventOf('evt-1', '1000000');

      for (let i = 0; i < 2; i++) {
        await expect(service.receive(signed(forged, clock.now()), forged)).rejects.toMatchObject({
          code: 'WEBHOOK_EVENT_CONFLICT',
          details: { eventId: 'evt-1' },
        });
      }
      expect(deposits.get('evt-1')).toMatchObject({ amount: '1000', conflicts: 2 });
      expect(credits).toEqual([{ eventId: 'evt-1', to: WALLET, amount: 1000n }]);
    });

    it('refuses a deposit for an address no user has with NOT_FOUND, recording nothing', async () => {
      const { service, clock, deposits } = setup();
      const event: BridgeDepositEvent = {
        ...eventOf(),
        data: { address: '0x00000000000000000000000000000000000000ff', amount: '1' },
      };

      await expect(service.receive(signed(event, clock.now()), event)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(deposits.size).toBe(0);
    });

    it('refuses an unsigned delivery before looking at the event', async () => {
      const { service, deposits } = setup();
      const event = eventOf();

      await expect(
        service.receive(
          { rawBody: Buffer.from(JSON.stringify(event)), signature: undefined, timestamp: undefined },
          event,
        ),
      ).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' });
      expect(deposits.size).toBe(0);
    });

    it('a retry of an event recorded but not yet credited (the credit failed) credits it then', async () => {
      const { service, clock, credits, deposits, failNextCredit } = setup();
      const event = eventOf();
      failNextCredit();
      await expect(service.receive(signed(event, clock.now()), event)).rejects.toThrow('RPC unreachable');
      expect(deposits.get('evt-1')?.status).toBe('received');

      const retry = await service.receive(signed(event, clock.now()), event);

      expect(retry).toMatchObject({ status: 'duplicate', txHash: `0x${'1'.padStart(64, '0')}` });
      expect(deposits.get('evt-1')?.status).toBe('credited');
      expect(credits).toHaveLength(1);
    });
  });

  describe('sweep', () => {
    it('credits recorded deposits a crash left uncredited and delivers notifications that failed', async () => {
      const { service, clock, deposits, outbox, sent, failNextCredit, notifier } = setup();
      const event = eventOf();
      failNextCredit();
      notifier(true);
      await expect(service.receive(signed(event, clock.now()), event)).rejects.toThrow('RPC unreachable');
      expect(outbox[0]?.status).toBe('pending');

      notifier(false);
      await service.sweep();

      expect(deposits.get('evt-1')?.status).toBe('credited');
      expect(outbox[0]?.status).toBe('delivered');
      expect(sent).toHaveLength(1);
    });

    it('keeps a notification whose delivery failed pending with its error, and delivers it at the next sweep', async () => {
      const { service, clock, outbox, sent, notifier } = setup();
      const event = eventOf();
      notifier(true);

      await service.receive(signed(event, clock.now()), event);
      expect(outbox[0]).toMatchObject({ status: 'pending', lastError: 'push provider down' });
      expect(await service.deliverNotifications()).toBe(0);

      notifier(false);
      expect(await service.deliverNotifications()).toBe(1);
      expect(outbox[0]).toMatchObject({ status: 'delivered', lastError: null });
      expect(sent).toHaveLength(1);
      expect(await service.deliverNotifications()).toBe(0);
    });
  });
});
