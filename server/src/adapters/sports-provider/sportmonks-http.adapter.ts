import type { UpstreamRequest } from '../../areas/sports/sports-request.js';
import { UpstreamTransportError, type SportsProviderPort, type UpstreamResponse } from './sports-provider.port.js';

export interface SportmonksConfig {
  /** The provider token: added to every upstream call, never returned, logged or cached. */
  readonly token: string;
  /** e.g. https://api.sportmonks.com/v3 */
  readonly v3BaseUrl: string;
  /** e.g. https://cricket.sportmonks.com/api/v2.0 */
  readonly cricketV2BaseUrl: string;
  /** Per upstream call, from sending to the last byte of the body. */
  readonly timeoutMs: number;
}

const REDACTED = '[redacted]';

function retryAfterOf(res: Response, body: unknown): number | undefined {
  const header = Number(res.headers.get('retry-after'));
  if (Number.isFinite(header) && header > 0) return header;
  const resets = (body as { rate_limit?: { resets_in_seconds?: unknown } } | null)?.rate_limit?.resets_in_seconds;
  return typeof resets === 'number' && resets > 0 ? resets : undefined;
}

/**
 * Sportmonks over HTTP (global fetch): the v3 API (football, cricket, motorsport) and the older
 * cricket v2 host, with the token as the `api_token` query parameter.
 */
export class SportmonksHttpAdapter implements SportsProviderPort {
  private readonly tokenForms: string[];

  constructor(private readonly config: SportmonksConfig) {
    if (!config.token) throw new Error('SportmonksHttpAdapter needs a provider token');
    // The forms the token can take inside a JSON body: raw, URL-encoded, with JSON-escaped slashes.
    this.tokenForms = [
      ...new Set([config.token, encodeURIComponent(config.token), config.token.replaceAll('/', '\\/')]),
    ];
  }

  async fetch(req: UpstreamRequest, signal: AbortSignal): Promise<UpstreamResponse> {
    const base = req.api === 'v3' ? this.config.v3BaseUrl : this.config.cricketV2BaseUrl;
    const url = new URL(`${base.replace(/\/$/, '')}/${req.path}`);
    for (const [key, value] of req.params) url.searchParams.append(key, value);
    url.searchParams.set('api_token', this.config.token);
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { signal: AbortSignal.any([signal, timeout]), headers: { accept: 'application/json' } });
      text = await res.text();
    } catch (err) {
      // Never echo the URL or the fetch error's cause: both can carry the token.
      if (timeout.aborted) {
        throw new UpstreamTransportError(`upstream timed out after ${this.config.timeoutMs} ms`, true);
      }
      throw new UpstreamTransportError(`upstream unreachable (${(err as Error).name})`, false);
    }
    const body = parseJson(this.scrub(text));
    const retryAfterSeconds = retryAfterOf(res, body);
    return retryAfterSeconds === undefined
      ? { status: res.status, body }
      : { status: res.status, body, retryAfterSeconds };
  }

  /**
   * Pagination links (v3 `next_page`, v2 `links`) may repeat the request URL, token included;
   * answers are cached and passed to callers, so the token is removed from the text first.
   */
  private scrub(text: string): string {
    let out = text;
    for (const form of this.tokenForms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  }
}

/** A non-JSON body (an HTML error page from a gateway) reads as null. */
function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
