import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from './sse.js';

function parseIn(chunks: string[]): { messages: SseMessage[]; retries: number[] } {
  const retries: number[] = [];
  const parser = new SseParser((ms) => retries.push(ms));
  const messages = chunks.flatMap((c) => parser.feed(c));
  return { messages, retries };
}

describe('SseParser', () => {
  const text = 'retry: 2000\n\n: heartbeat\n\nid: 7\nevent: duel.settled\ndata: {"a":1}\n\n';

  it('reads id, event and data, skipping comments and the retry-only message', () => {
    const { messages, retries } = parseIn([text]);
    expect(messages).toEqual([{ id: '7', event: 'duel.settled', data: '{"a":1}' }]);
    expect(retries).toEqual([2000]);
  });

  it('gives the same messages however the text is split, one character at a time included', () => {
    const whole = parseIn([text]).messages;
    for (let cut = 1; cut < text.length; cut++) {
      expect(parseIn([text.slice(0, cut), text.slice(cut)]).messages).toEqual(whole);
    }
    expect(parseIn([...text]).messages).toEqual(whole);
  });

  it('joins multi-line data with newlines and takes CRLF and CR line ends, split between chunks', () => {
    const { messages } = parseIn(['data: first\r', '\ndata:second\r\rdata: x\n', '\n']);
    expect(messages).toEqual([
      { id: undefined, event: 'message', data: 'first\nsecond' },
      { id: undefined, event: 'message', data: 'x' },
    ]);
  });

  it('keeps a value colon and drops only one leading space; ignores unknown fields and bad retry', () => {
    const { messages, retries } = parseIn(['data:  a:b\nfoo: bar\nretry: 1s\ndata\n\n']);
    expect(messages).toEqual([{ id: undefined, event: 'message', data: ' a:b\n' }]);
    expect(retries).toEqual([]);
  });

  it('does not dispatch an unterminated message', () => {
    expect(parseIn(['id: 1\ndata: {}\n']).messages).toEqual([]);
  });
});
