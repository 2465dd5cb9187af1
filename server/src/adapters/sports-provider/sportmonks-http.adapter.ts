import type { UpstreamRequest } from '../../sports/sports-request.js';
import { UpstreamTransportError, type SportsProviderPort, type UpstreamResponse } from './sports-provider.port.js';

export interface SportmonksConfig {
  /** The provider token: added to every upstream call, never returned, logged or cached. */
  readonly token: string;
  /** e.g. https://api.sportmonks.com/v3 */
  readonly v3BaseUrl: string;
  /** e.g. https://cricket.sportmonks.com/api/v2.0 */
  readonly cricketV2BaseUrl: string;
  readonly timeoutMs: number;
}

function retryAfterOf(res: Response, body: unknown): number | undefined {
  const header = Number(res.headers.get('retry-after'));
  if (Number.isFinite(header) && header > 0) return header;
  const resets = (body as { rate_limit?: { resets_in_seconds?: unknown } } | null)?.rate_limit?.resets_in_seconds;
  return typeof resets === 'number' && resets > 0 ? resets : undefined;
}

/** Sportmonks over HTTP: football/motorsport/cricket v3 and the older cricket v2 host. */
export class SportmonksHttpAdapter implements SportsProviderPort {
  constructor(private readonly config: SportmonksConfig) {}

  async fetch(req: UpstreamRequest, signal: AbortSignal): Promise<UpstreamResponse> {
    const base = req.api === 'v3' ? this.config.v3BaseUrl : this.config.cricketV2BaseUrl;
    const url = new URL(`${base.replace(/\/$/, '')}/${req.path}`);
    for (const [key, value] of req.params) url.searchParams.append(key, value);
    url.searchParams.set('api_token', this.config.token);
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.any([signal, timeout]), headers: { accept: 'application/json' } });
    } catch (err) {
      // Never echo the URL: it carries the token.
      if (timeout.aborted)
        throw new UpstreamTransportError(`upstream timed out after ${this.config.timeoutMs} ms`, true);
      throw new UpstreamTransportError(`upstream unreachable (${(err as Error).name})`, false);
    }
    let body: unknown = null;
    try {
      const text = await res.text();
      if (text) body = JSON.parse(text) as unknown;
    } catch {
      // A non-JSON body (an HTML error page) is passed on as null.
    }
    const retryAfterSeconds = retryAfterOf(res, body);
    return retryAfterSeconds === undefined
      ? { status: res.status, body }
      : { status: res.status, body, retryAfterSeconds };
  }
}
