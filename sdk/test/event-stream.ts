import { HttpResponse } from 'msw';
import type { DuelkitEvent, DuelSnapshot } from '../src/events.js';
import { DUEL_ID } from './mock-service.js';

const APP = '0b9f3c2e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';

/** A market snapshot as events carry it. */
export function snapshot(status: DuelSnapshot['status']): DuelSnapshot {
  return {
    duelId: DUEL_ID,
    status,
    chainState: 'confirmed',
    isPrivate: false,
    question: 'Will it rain?',
    options: ['YES', 'NO'],
    winningOptionIndex: status === 'settled' ? 0 : null,
    poolBalances: ['1', '1'],
    totalVolume: '2',
    uniqueParticipants: 1,
    yesBps: 5000,
    endTime: '2026-11-28T00:00:00.000Z',
    resolvedAt: null,
    contestEndsAt: null,
  };
}

/** One SSE message as the service writes it. */
export function frame(
  seq: number,
  type: DuelkitEvent['type'] = 'duel.settled',
  status: DuelSnapshot['status'] = 'settled',
): string {
  const envelope = {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    seq: String(seq),
    type,
    version: 1,
    createdAt: '2026-11-28T00:00:00.000Z',
    builderAppId: APP,
    data: snapshot(status),
  };
  return `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify(envelope)}\n\n`;
}

/** A `text/event-stream` answer that sends `chunks` and then ends (or stays open with `hold`). */
export function sse(chunks: string[], opts: { hold?: boolean } = {}): HttpResponse<ReadableStream> {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      if (!opts.hold) controller.close();
    },
  });
  return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
}
