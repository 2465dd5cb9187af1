import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { marketsContract } from '@duelkit/contract';
import type { Packs } from '../../areas/packs/packs.js';
import { adminOf, tenantOf } from '../principal.js';
import { ctxOf } from '../request-context.js';

const s = initServer();

function admin(req: Request) {
  const a = adminOf(req);
  return { adminId: a.adminId, email: a.email };
}

/** §4.16 packs administration (docs/packs.md). */
export function packAdminRoutes(packs: Packs) {
  const { catalog, lifecycle, payouts, relayer, tick } = packs;
  return s.router(marketsContract.packsAdmin, {
    scheduleTick: async () => ({ status: 200, body: await tick.run() }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await catalog.create({ kind: 'admin' }, tenantOf(req).builderAppId, body),
    }),
    addMarket: async ({ params, body, req }) => ({
      status: 201,
      body: await catalog.addMarket(ctxOf(req), { kind: 'admin' }, params.packId, {
        source: 'existing',
        marketId: body.marketId,
      }),
    }),
    publish: async ({ params }) => ({ status: 200, body: await catalog.publish({ kind: 'admin' }, params.packId) }),
    lock: async ({ params }) => ({ status: 200, body: await lifecycle.lock(params.packId) }),
    resolveMarket: async ({ params, body, req }) => ({
      status: 200,
      body: await lifecycle.resolveMarket(ctxOf(req), params.packId, params.marketId, body.winningOptionIndex),
    }),
    voidMarket: async ({ params, body, req }) => ({
      status: 200,
      body: await lifecycle.voidMarket(ctxOf(req), admin(req), params.packId, params.marketId, body.reason),
    }),
    settlementPreview: async ({ params }) => ({ status: 200, body: await lifecycle.preview(params.packId) }),
    settle: async ({ params }) => ({ status: 200, body: await lifecycle.settle(params.packId) }),
    cancelRefund: async ({ params, body }) => ({
      status: 200,
      body: await lifecycle.cancel(params.packId, body.reason),
    }),
    submitPayoutRoot: async ({ params, req }) => ({
      status: 200,
      body: await payouts.submitRoot(ctxOf(req), params.packId, 'payout'),
    }),
    submitRefundRoot: async ({ params, req }) => ({
      status: 200,
      body: await payouts.submitRoot(ctxOf(req), params.packId, 'refund'),
    }),
    autoClaimPayouts: async ({ params }) => ({ status: 200, body: await relayer.start(params.packId, 'payout') }),
    autoClaimRefunds: async ({ params }) => ({ status: 200, body: await relayer.start(params.packId, 'refund') }),
    payoutClaimStatus: async ({ params }) => ({
      status: 200,
      body: await payouts.claimStatus(params.packId, 'payout'),
    }),
    refundClaimStatus: async ({ params }) => ({
      status: 200,
      body: await payouts.claimStatus(params.packId, 'refund'),
    }),
  });
}
