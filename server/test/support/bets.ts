// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary answer fields
type Body = Record<string, any>;

/** Where and as whom a test talks to the markets host. */
export interface Caller {
  readonly url: string;
  readonly builderKey: string;
  readonly token: string;
}

/** POSTs JSON to the markets host, with an Idempotency-Key when given. */
export async function postJson(caller: Caller, path: string, body: unknown, idempotencyKey?: string) {
  const res = await fetch(`${caller.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-builder-api-key': caller.builderKey,
      authorization: `Bearer ${caller.token}`,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body };
}

/** Estimates a buy and returns the bets/create body for it (fails the test if no estimate came back). */
export async function betBody(caller: Caller, duelId: string, amount: bigint, optionIndex = 0, slippageBps = 500) {
  const quote = await postJson(caller, '/svc/user/bets/estimate-buy', {
    duelId,
    optionIndex,
    betAmountUsdc: amount.toString(),
    slippageBps,
  });
  const estimate = quote.body['estimate'] as Record<string, string> | undefined;
  if (!estimate) throw new Error(`no estimate: ${quote.status} ${JSON.stringify(quote.body)}`);
  return {
    estimate,
    duelId,
    duelType: 'PREDICTION',
    bet: optionIndex === 0 ? 'YES' : 'NO',
    optionIndex,
    betAmount: estimate['amountIn'],
    betAmountUsdc: estimate['amountIn'],
    slippageBps,
  };
}
