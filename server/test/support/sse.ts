/** One Server-Sent Events message, as the event-stream tests read them. */
export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
}

/** Reads an SSE response into `messages` (named events only) until the stream ends or is aborted. */
export function readSse(res: Response, messages: SseMessage[]): void {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const msg: SseMessage = {};
        for (const line of block.split('\n')) {
          const [field, ...rest] = line.split(': ');
          if (field === 'id' || field === 'event' || field === 'data') msg[field] = rest.join(': ');
        }
        if (msg.event) messages.push(msg);
      }
    }
  })();
}

/**
 * Waits until `check` holds (up to 10 s), failing with `what` and, when given, what `explain`
 * finds (the state behind a delivery that did not come: was the event numbered, published?).
 */
export async function untilSeen(check: () => boolean, what: string, explain?: () => Promise<string>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  const why = explain ? await explain().catch((err: unknown) => `(could not explain: ${String(err)})`) : '';
  throw new Error(`timed out waiting for ${what}${why ? `: ${why}` : ''}`);
}
