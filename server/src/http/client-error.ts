import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { ERROR_STATUS, type ApiErrorBody, type ErrorCode } from '@duelkit/contract';

const REASON: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The error a request gets when Node's HTTP parser refuses it before any route sees it. */
export function clientErrorOf(parserCode: string | undefined): { code: ErrorCode; message: string } {
  switch (parserCode) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'HEADERS_TOO_LARGE', message: 'The request line and headers exceed 16 KB' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' };
    default:
      return { code: 'MALFORMED_REQUEST', message: 'The request is not valid HTTP' };
  }
}

/**
 * Answers a request Node's HTTP parser refused (headers too large, a malformed request line, a
 * request that never completed) with the same ApiError body as every other error, then closes
 * the connection. There is no request object yet, so the answer is written to the socket.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || started) {
    socket.destroy();
    return;
  }
  const { code, message } = clientErrorOf(err.code);
  const status = ERROR_STATUS[code];
  const requestId = randomUUID();
  const body: ApiErrorBody = { code, message, requestId };
  const json = JSON.stringify(body);
  socket.end(
    [
      `HTTP/1.1 ${status} ${REASON[status] ?? 'Error'}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(json)}`,
      `x-request-id: ${requestId}`,
      'Connection: close',
      '',
      json,
    ].join('\r\n'),
  );
}
