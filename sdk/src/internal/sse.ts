/** One Server-Sent Events message as the WHATWG parsing rules give it. */
export interface SseMessage {
  /** `event:` field; `message` when none was given. */
  readonly event: string;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
  /** The `id:` field of this message, when it had one. */
  readonly id: string | undefined;
}

/**
 * An incremental `text/event-stream` parser: feed it decoded text in chunks of any size (a line,
 * a CRLF or a multi-byte character may be split across chunks; decode with a streaming
 * TextDecoder) and it returns the messages completed so far. Comments (`: heartbeat`) are
 * dropped, `data:` lines are joined with `\n`, a message without data is not dispatched, and
 * `retry:` is reported through `onRetry`.
 */
export class SseParser {
  #buffer = '';
  #afterCr = false;
  #event = '';
  #data: string[] = [];
  #id: string | undefined;
  #hasData = false;

  constructor(private readonly onRetry: (ms: number) => void = () => {}) {}

  feed(chunk: string): SseMessage[] {
    let text = chunk;
    // A CR ended the previous chunk: a LF starting this one belongs to the same line break.
    if (this.#afterCr && text.startsWith('\n')) text = text.slice(1);
    this.#afterCr = false;
    this.#buffer += text;
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.#buffer.length; i++) {
      const ch = this.#buffer[i];
      if (ch !== '\n' && ch !== '\r') continue;
      this.#line(this.#buffer.slice(start, i), out);
      if (ch === '\r') {
        if (i + 1 < this.#buffer.length) {
          if (this.#buffer[i + 1] === '\n') i += 1;
        } else {
          this.#afterCr = true;
        }
      }
      start = i + 1;
    }
    this.#buffer = this.#buffer.slice(start);
    return out;
  }

  #line(line: string, out: SseMessage[]): void {
    if (line === '') {
      if (this.#hasData) {
        out.push({ event: this.#event || 'message', data: this.#data.join('\n'), id: this.#id });
      }
      this.#event = '';
      this.#data = [];
      this.#hasData = false;
      this.#id = undefined;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        this.#hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.#id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.onRetry(Number(value));
        break;
      default:
      // Unknown fields are ignored.
    }
  }
}
