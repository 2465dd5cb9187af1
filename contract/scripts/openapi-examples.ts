/**
 * Request and response examples of the main flows (sign-in, creating a market, trading,
 * withdrawing), keyed `METHOD path` as in the contract. The generator puts them on the operations'
 * media types; openapi-examples.test.ts parses each one with the route's own zod schema, so they
 * cannot drift from what the server accepts and answers.
 *
 * Values are realistic: amounts in base units with 18 decimals, checksummed addresses, 32-byte
 * ids and hashes, ISO 8601 times.
 */
export interface Example {
  /** The key under `examples` in the document. */
  readonly name: string;
  readonly summary: string;
  readonly value: unknown;
}

export interface RouteExamples {
  readonly request?: readonly Example[];
  /** By status; every status must be one the route declares. */
  readonly responses?: Readonly<Record<number, readonly Example[]>>;
}

const BUILDER_APP_ID = '3f0c2b7e-8a41-4d6b-9c2e-5b7a1d9e4f60';
const SIGNER = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const MANAGED_WALLET = '0x5A0b54D5dc17e0AadC383d2db43B0a0D3E029c4c';
const DUEL_ID = '0x6f1d8a2c4b7e9f03a5c8d1e6b2f4a7c9e0d3b5f8a1c4e7d2b9f6a3c0e5d8b1f4';
const REQUEST_ID = '5d7e9a1b-3c4f-4e8a-9b2d-6f1a0c8e7d35';

const SIWE_MESSAGE =
  'app.duelkit.example wants you to sign in with your Ethereum account:\n' +
  `${SIGNER}\n\n` +
  `Sign in to Duelkit (builder app ${BUILDER_APP_ID}).\n\n` +
  'URI: https://app.duelkit.example\n' +
  'Version: 1\n' +
  'Chain ID: 8453\n' +
  'Nonce: 9f86d081884c7d659a2feaa0c55ad015\n' +
  'Issued At: 2026-11-22T12:00:00.000Z\n' +
  'Expiration Time: 2026-11-22T12:05:00.000Z\n' +
  'Resources:\n' +
  `- urn:duelkit:builder-app:${BUILDER_APP_ID}`;

/** personal_sign signature: r (32 bytes) ‖ s (32 bytes) ‖ v (1 byte). */
const SIGNATURE =
  '0x2f8c6a1e4b7d9f0a3c5e8b1d4f7a0c2e5b8d1f4a7c0e3b6d9f2a5c8e1b4d7f0a' +
  '3c6e9b2d5f8a1c4e7b0d3f6a9c2e5b8d1f4a7c0e3b6d9f2a5c8e1b4d7f0a3c6e' +
  '1b';

const USER = {
  id: '0b6e4c2a-7f19-4d38-a5e1-9c3b8d2f6a47',
  address: MANAGED_WALLET,
  eoaAddress: SIGNER,
  username: 'satoshi_fan',
  profileImageUrl: null,
  builderAppId: BUILDER_APP_ID,
  createdAt: '2026-10-03T08:14:27.512Z',
};

const BUY_ESTIMATE = {
  quoteId: 'HHjGPdBrjR1IOq27qS3ES8MRab5pNdPQ3n20W-IRVw0',
  side: 'buy',
  trader: MANAGED_WALLET,
  duelId: DUEL_ID,
  optionIndex: 0,
  amountIn: '10000000000000000000',
  fee: '200000000000000000',
  sharesOut: '18552971311227281367',
  minSharesOut: '18367441598115008553',
  slippageBps: 100,
  avgPrice: '538997222183409863',
  pricesBefore: ['520000000000000000', '480000000000000000'],
  pricesAfter: ['535800000000000000', '464200000000000000'],
  priceImpactBps: 158,
  quotedAt: '2026-11-22T12:00:00.000Z',
  expiresAt: '2026-11-22T12:01:00.000Z',
};

export const EXAMPLES: Readonly<Record<string, RouteExamples>> = {
  'POST /svc/user/auth/eoa/challenge': {
    request: [{ name: 'challenge', summary: 'The wallet that will sign', value: { address: SIGNER } }],
    responses: {
      200: [
        {
          name: 'challenge',
          summary: 'A Sign-In with Ethereum message, valid for 5 minutes',
          value: {
            message: SIWE_MESSAGE,
            nonce: '9f86d081884c7d659a2feaa0c55ad015',
            timestamp: '2026-11-22T12:00:00.000Z',
            domain: 'app.duelkit.example',
            builderAppId: BUILDER_APP_ID,
            expiresAt: '2026-11-22T12:05:00.000Z',
          },
        },
      ],
    },
  },
  'POST /svc/user/auth/eoa/login': {
    request: [
      {
        name: 'signedChallenge',
        summary: 'The challenge message, unchanged, with its personal_sign signature',
        value: { message: SIWE_MESSAGE, signature: SIGNATURE },
      },
    ],
    responses: {
      200: [
        {
          name: 'session',
          summary: 'Signed in: send the token as Authorization: Bearer <token>',
          value: {
            exists: true,
            token:
              'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiIwYjZlNGMyYSIsImF1ZCI6ImR1ZWxraXQ6dXNlciJ9.' +
              'MEUCIQDk2pU7yX1vF3qL8nR0sT6wZ9aB4cE7hJ2mK5oP8rS1uA',
            expiresAt: '2026-11-29T12:00:03.000Z',
            user: USER,
          },
        },
        {
          name: 'noAccount',
          summary: 'The wallet has no account yet: register it with the same signed challenge',
          value: { exists: false },
        },
      ],
    },
  },
  'POST /svc/user/duels/create': {
    request: [
      {
        name: 'yesNoMarket',
        summary: 'A public yes/no market in credits, seeded with 100 units',
        value: {
          question: 'Will Arsenal beat Chelsea on Saturday?',
          description: 'Resolves YES if Arsenal win in regular time; a draw resolves NO.',
          category: 'Football',
          tags: ['premier-league', 'derby'],
          options: ['YES', 'NO'],
          duelType: 'PREDICTION',
          collateralStack: 'credits',
          isPrivate: false,
          startTime: '2026-11-28T15:00:00.000Z',
          endTime: '2026-11-28T17:00:00.000Z',
          initialLiquidity: '100000000000000000000',
        },
      },
    ],
    responses: {
      201: [
        {
          name: 'accepted',
          summary: 'Sent on chain; poll get-duel-by-id until chainState is confirmed',
          value: {
            duelId: DUEL_ID,
            txHash: '0x9c4e2a7b1d5f8c3e6a0b4d7f2c5e8a1b3d6f9c2e5a8b1d4f7c0e3a6b9d2f5c8e',
            chainState: 'pending',
          },
        },
      ],
    },
  },
  'POST /svc/user/bets/estimate-buy': {
    request: [
      {
        name: 'tenUnitsOnYes',
        summary: 'Quote a 10-unit bet on option 0 with 1% slippage',
        value: { duelId: DUEL_ID, optionIndex: 0, betAmountUsdc: '10000000000000000000', slippageBps: 100 },
      },
    ],
    responses: {
      201: [
        {
          name: 'estimate',
          summary: 'A signed quote: pass `estimate` back unchanged to bets/create before it expires',
          value: { success: true, estimate: BUY_ESTIMATE },
        },
        {
          name: 'belowMinimum',
          summary: 'A well-formed request the market cannot honour',
          value: {
            success: false,
            code: 'BET_BELOW_MINIMUM',
            message: 'The stake is below the 5-unit minimum',
            details: { minimum: '5000000000000000000' },
          },
        },
      ],
    },
  },
  'POST /svc/user/bets/create': {
    request: [
      {
        name: 'fromEstimate',
        summary: 'The estimate unchanged, with the bet it prices',
        value: {
          estimate: BUY_ESTIMATE,
          duelId: DUEL_ID,
          duelType: 'PREDICTION',
          bet: 'YES',
          optionIndex: 0,
          betAmount: '10000000000000000000',
          betAmountUsdc: '10000000000000000000',
          slippageBps: 100,
        },
      },
    ],
    responses: {
      201: [
        {
          name: 'accepted',
          summary: 'Sent on chain; poll user-shares or the portfolio for the final position',
          value: {
            success: true,
            txHash: '0x1b7e4d0a3c6f9e2b5d8a1c4f7e0b3d6a9c2f5e8b1d4a7c0f3e6b9d2a5c8f1e4b',
            duelId: DUEL_ID,
            optionIndex: 0,
            betAmount: '10000000000000000000',
            expectedSharesOut: '18552971311227281367',
            minSharesOut: '18367441598115008553',
            chainState: 'pending',
          },
        },
      ],
      400: [
        {
          name: 'slippageExceeded',
          summary: 'The pool moved: the live shares fall below estimate.minSharesOut',
          value: {
            code: 'SLIPPAGE_EXCEEDED',
            message: 'Slippage exceeded: the price moved past your limit',
            requestId: REQUEST_ID,
            details: { liveSharesOut: '18102245560118339021', minSharesOut: '18367441598115008553' },
          },
        },
      ],
    },
  },
  'POST /svc/user/withdraw': {
    request: [
      {
        name: 'credits',
        summary: 'Send 25 units of credits to an external wallet',
        value: {
          collateralStack: 'credits',
          amount: '25000000000000000000',
          toAddress: '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B',
        },
      },
    ],
    responses: {
      200: [
        {
          name: 'submitted',
          summary: 'Sent; the daily limit after this withdrawal',
          value: {
            id: 'c2a9e7f1-4b3d-4e6a-8f0c-1d5b7a9e3c24',
            collateralStack: 'credits',
            amount: '25000000000000000000',
            toAddress: '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B',
            status: 'submitted',
            txHash: '0x4d8a1f6c3e9b2d7a0c5f8e1b4a7d0c3f6e9b2a5d8c1f4e7b0a3d6c9f2e5b8a1d',
            createdAt: '2026-11-22T12:10:04.318Z',
            dailyLimit: {
              user: MANAGED_WALLET,
              collateralStack: 'credits',
              limit: '1000000000000000000000',
              used: '25000000000000000000',
              remaining: '975000000000000000000',
              windowSeconds: 86_400,
              resetsAt: '2026-11-23T12:10:04.318Z',
            },
          },
        },
      ],
      422: [
        {
          name: 'dailyLimitExceeded',
          summary: '1500 units when 975 remain of the rolling 24 h limit: ask for a withdrawal request instead',
          value: {
            code: 'DAILY_LIMIT_EXCEEDED',
            message:
              'Withdrawing 1500000000000000000000 would pass the 24 h limit: 975000000000000000000 of ' +
              '1000000000000000000000 base units remain. Ask for a withdrawal request above that.',
            requestId: REQUEST_ID,
            details: {
              limit: '1000000000000000000000',
              used: '25000000000000000000',
              remaining: '975000000000000000000',
              resetsAt: '2026-11-23T12:10:04.318Z',
            },
          },
        },
      ],
    },
  },
};
